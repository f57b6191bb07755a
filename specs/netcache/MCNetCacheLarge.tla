---- MODULE MCNetCacheLarge ----
(* Model of NetCache: 2 keys on 2 servers, 1 cache slot, 2 clients: admissions, evictions, 1 loss *)
EXTENDS NetCache
CONSTANTS k1, k2, s1, s2
\* Keys are partitioned over the servers round-robin.
OwnerMap == [k \in Key |-> IF k = k1 THEN s1 ELSE s2]
\* Clients are interchangeable (write and read ids are global, not per client).
ClientSymmetry == Permutations(Client)
====
