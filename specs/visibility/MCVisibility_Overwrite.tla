------------------------ MODULE MCVisibility_Overwrite ------------------------
(* Buggy variant: the small model with BugOverwrite = TRUE (see the .cfg). *)
EXTENDS MCVisibility
=============================================================================
