---- MODULE MCFarReachTwoKeys ----
(* Model of FarReach: 2 keys on 2 servers, 1 cache slot, 2 clients: admission, eviction, re-admission of the other key *)
EXTENDS FarReach
CONSTANTS k1, k2, s1, s2
\* Keys are partitioned over the servers round-robin.
OwnerMap == [k \in Key |-> IF k = k2 THEN s2 ELSE s1]
\* Clients are interchangeable (write and read ids are global, not per client).
ClientSymmetry == Permutations(Client)
====
