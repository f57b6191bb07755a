---- MODULE MCFarReachLive_RecoveredOutdated ----
(* Bounds in the .cfg (MCFarReachLive's, one property); definitions in MCFarReachLive. *)
EXTENDS MCFarReachLive
====
