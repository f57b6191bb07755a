---- MODULE MCNetCacheCounterGuard ----
(* Model of NetCache: the per-key counter guard (FillBySeen <- CounterGuard) with the bounds of MCNetCache *)
EXTENDS NetCache
CONSTANTS k1, s1
\* Keys are partitioned over the servers round-robin.
OwnerMap == [k \in Key |-> s1]
\* Clients are interchangeable (write and read ids are global, not per client).
ClientSymmetry == Permutations(Client)
====
