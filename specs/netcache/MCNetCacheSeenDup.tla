---- MODULE MCNetCacheSeenDup ----
(* Model of NetCache: FillBySeen: 1 key, 2 clients: admission (probe), 2 evictions, re-admission, 1 duplicated message *)
EXTENDS NetCache
CONSTANTS k1, s1
\* Keys are partitioned over the servers round-robin.
OwnerMap == [k \in Key |-> s1]
\* Clients are interchangeable (write and read ids are global, not per client).
ClientSymmetry == Permutations(Client)
SeenOn == TRUE
====
