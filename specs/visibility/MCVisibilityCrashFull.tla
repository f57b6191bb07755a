----------------------- MODULE MCVisibilityCrashFull -----------------------
(* Full model: both crashes together with a lost packet and a timeout.      *)
(* Shared definitions are in MCVisibility.                                  *)
EXTENDS MCVisibility
=============================================================================
