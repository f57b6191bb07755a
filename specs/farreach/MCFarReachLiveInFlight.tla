---- MODULE MCFarReachLiveInFlight ----
(* Liveness models of FarReach (FarReachLive).  No SYMMETRY: TLC's liveness   *)
(* checking is not sound under symmetry.  The VIEW (viewVars) leaves out only *)
(* `act`, which no action, fairness condition or property reads, so merging   *)
(* states that differ only in it keeps the check sound.  Bounds in the .cfg.  *)
EXTENDS FarReachLive
CONSTANTS k1, s1
OwnerMap == [k \in Key |-> s1]
On == TRUE
====
