---- MODULE MCVisibilityLive_NoStaleRepair ----
(* Bounds in the .cfg; definitions in MCVisibilityLive. *)
EXTENDS MCVisibilityLive
====
