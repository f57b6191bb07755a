---- MODULE MCFarReachClientCrashConform ----
(* CONFORMANCE ONLY (not in MANIFEST): 1 key, 2 clients, client crashes with admission, eviction, loss; no switch crash *)
EXTENDS FarReach
CONSTANTS k1, s1
\* Keys are partitioned over the servers round-robin.
OwnerMap == [k \in Key |-> s1]
\* Clients are interchangeable (write and read ids are global, not per client).
ClientSymmetry == Permutations(Client)
====
