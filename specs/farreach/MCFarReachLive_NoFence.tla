---- MODULE MCFarReachLive_NoFence ----
(* Bounds in the .cfg (MCFarReachLive's, one property); definitions in MCFarReachLive. *)
EXTENDS MCFarReachLive
BugOn == TRUE
====
