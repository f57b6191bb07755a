---- MODULE MCDistCacheRefetch ----
(* Model of DistCache with the agent's re-fill of a copy that stays invalid (CacheRefetch), at any       *)
(* moment: 1 key, 1 client, 1 write, 1 read, insertion into both layers, 1 loss, 1 re-fill             *)
EXTENDS DistCache
CONSTANTS k1, n1, n2
\* Independent hash partitions: the spine layer puts every key on n1, the
\* leaf layer puts k1 on n2.
PlaceMap == [l \in Layer |-> [k \in Key |-> IF l = "spine" THEN n1 ELSE n2]]
\* Clients are interchangeable (write and read ids are global, not per client).
ClientSymmetry == Permutations(Client)
RefetchOn == TRUE
====
