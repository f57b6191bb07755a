---- MODULE MCFarReachLiveLoss ----
(* Bounds in the .cfg; definitions in MCFarReachLive. *)
EXTENDS MCFarReachLive
====
