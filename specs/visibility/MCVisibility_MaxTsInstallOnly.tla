------------------------ MODULE MCVisibility_MaxTsInstallOnly ------------------------
(* Buggy variant: the small model with BugMaxTsInstallOnly = TRUE. *)
(* Definitions shared by all models are in MCVisibility; bounds and flags *)
(* are in MCVisibility_MaxTsInstallOnly.cfg. *)
EXTENDS MCVisibility
=============================================================================
