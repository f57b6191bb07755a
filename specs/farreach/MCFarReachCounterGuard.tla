---- MODULE MCFarReachCounterGuard ----
(* The paper's per-key counter guard (FillBySeen off), with the bounds of MCFarReachCache *)
EXTENDS FarReach
CONSTANTS k1, s1
\* Keys are partitioned over the servers round-robin.
OwnerMap == [k \in Key |-> s1]
\* Clients are interchangeable (write and read ids are global, not per client).
ClientSymmetry == Permutations(Client)
====
