---- MODULE MCFarReachSeen ----
(* FarReach with FillBySeen (no per-key counter in the latest guard): 1 key, 2 clients: admission, eviction, re-admission, 1 loss *)
EXTENDS FarReach
CONSTANTS k1, s1
\* Keys are partitioned over the servers round-robin.
OwnerMap == [k \in Key |-> s1]
\* Clients are interchangeable (write and read ids are global, not per client).
ClientSymmetry == Permutations(Client)
SeenOn == TRUE
====
