---- MODULE MCFarReach_UnguardedLatest ----
(* Model of FarReach: a GET_FOR_CACHE reply marks latest without the counter guard *)
EXTENDS FarReach
CONSTANTS k1, s1
\* Keys are partitioned over the servers round-robin.
OwnerMap == [k \in Key |-> s1]
\* Clients are interchangeable (write and read ids are global, not per client).
ClientSymmetry == Permutations(Client)
====
