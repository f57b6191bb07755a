------------------------ MODULE MCVisibility_ResyncNoMaxTs ------------------------
(* Buggy variant: the switch-crash model with BugResyncNoMaxTs = TRUE. *)
(* Definitions shared by all models are in MCVisibility; bounds and flags *)
(* are in MCVisibility_ResyncNoMaxTs.cfg. *)
EXTENDS MCVisibility
=============================================================================
