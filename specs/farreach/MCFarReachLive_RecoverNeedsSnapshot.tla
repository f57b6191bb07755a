---- MODULE MCFarReachLive_RecoverNeedsSnapshot ----
(* Bounds and the replaced rule in the .cfg; definitions in MCFarReachLive. *)
EXTENDS MCFarReachLive
====
