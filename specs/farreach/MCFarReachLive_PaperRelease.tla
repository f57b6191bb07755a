---- MODULE MCFarReachLive_PaperRelease ----
(* Bounds and the replaced rule in the .cfg; definitions in MCFarReachLive. *)
EXTENDS MCFarReachLive
====
