---- MODULE MCDistCacheRandom ----
(* Model of DistCache: 2 keys, 3 clients, 6 writes, 6 reads, 2 losses, 2 duplicates, 6 insertions, 2 evictions, 2 cache-switch crashes *)
EXTENDS DistCache
CONSTANTS k1, k2, n1, n2, n3
\* Independent hash partitions: the spine layer puts every key on n1, the
\* leaf layer puts k1 on n2 and k2 on n3.
PlaceMap == [l \in Layer |-> [k \in Key |-> IF l = "spine" THEN n1 ELSE IF k = k1 THEN n2 ELSE n3]]
\* Clients are interchangeable (write and read ids are global, not per client).
ClientSymmetry == Permutations(Client)
====
