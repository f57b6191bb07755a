---- MODULE MCNetCacheWritesLarge ----
(* Model of NetCache: 1 key, 2 clients, 3 writes: admission, 2 evictions, re-admission, 1 loss, 1 duplicate *)
EXTENDS NetCache
CONSTANTS k1, s1
\* Keys are partitioned over the servers round-robin.
OwnerMap == [k \in Key |-> s1]
\* Clients are interchangeable (write and read ids are global, not per client).
ClientSymmetry == Permutations(Client)
====
