---- MODULE MCNetCacheRestartSeqBaseNoLoss ----
(* Model of NetCache: 1 key, 2 clients: admission (probe), eviction, 1 switch crash with counters seeded above every old seq *)
EXTENDS NetCache
CONSTANTS k1, s1
\* Keys are partitioned over the servers round-robin.
OwnerMap == [k \in Key |-> s1]
\* Clients are interchangeable (write and read ids are global, not per client).
ClientSymmetry == Permutations(Client)
====
