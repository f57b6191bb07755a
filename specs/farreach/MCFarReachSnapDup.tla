---- MODULE MCFarReachSnapDup ----
(* Model of FarReach: 1 key, 2 clients: snapshot with admission, eviction, re-admission, 1 duplicate *)
EXTENDS FarReach
CONSTANTS k1, s1
\* Keys are partitioned over the servers round-robin.
OwnerMap == [k \in Key |-> s1]
\* Clients are interchangeable (write and read ids are global, not per client).
ClientSymmetry == Permutations(Client)
====
