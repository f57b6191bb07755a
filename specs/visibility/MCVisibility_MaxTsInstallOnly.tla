------------------------ MODULE MCVisibility_MaxTsInstallOnly ------------------------
(* Buggy variant BugMaxTsInstallOnly = TRUE with three writes (see .cfg). *)
(* Definitions shared by all models are in MCVisibility; bounds and flags *)
(* are in MCVisibility_MaxTsInstallOnly.cfg. *)
EXTENDS MCVisibility
=============================================================================
