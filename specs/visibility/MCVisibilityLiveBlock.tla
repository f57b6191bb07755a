---- MODULE MCVisibilityLiveBlock ----
(* Bounds in the .cfg; definitions in MCVisibilityLive. *)
EXTENDS MCVisibilityLive
====
