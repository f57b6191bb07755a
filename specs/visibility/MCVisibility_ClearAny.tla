------------------------ MODULE MCVisibility_ClearAny ------------------------
(* Buggy variant: the small model with BugClearAny = TRUE (see the .cfg). *)
EXTENDS MCVisibility
=============================================================================
