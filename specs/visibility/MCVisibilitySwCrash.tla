------------------------ MODULE MCVisibilitySwCrash ------------------------
(* Small model: one switch crash (with resynchronisation), no packet loss. *)
(* Shared definitions are in MCVisibility; bounds are in the .cfg.          *)
EXTENDS MCVisibility
=============================================================================
