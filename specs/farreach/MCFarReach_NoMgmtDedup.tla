---- MODULE MCFarReach_NoMgmtDedup ----
(* Model of FarReach: eviction victim may be a key still being admitted *)
EXTENDS FarReach
CONSTANTS k1, s1
\* Keys are partitioned over the servers round-robin.
OwnerMap == [k \in Key |-> s1]
\* Clients are interchangeable (write and read ids are global, not per client).
ClientSymmetry == Permutations(Client)
====
