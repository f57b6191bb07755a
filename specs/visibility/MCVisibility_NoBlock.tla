------------------------ MODULE MCVisibility_NoBlock ------------------------
(* Buggy variant: the small model with BugNoBlock = TRUE. *)
(* Definitions shared by all models are in MCVisibility; bounds and flags *)
(* are in MCVisibility_NoBlock.cfg. *)
EXTENDS MCVisibility
=============================================================================
