---- MODULE MCVisibilityLive_ClearsApplied ----
(* Bounds in the .cfg; definitions in MCVisibilityLive. *)
EXTENDS MCVisibilityLive
====
