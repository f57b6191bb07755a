------------------------ MODULE MCVisibility_NoValidate ------------------------
(* Buggy variant: the small model with BugNoValidate = TRUE (see the .cfg). *)
EXTENDS MCVisibility
=============================================================================
