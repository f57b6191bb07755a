---- MODULE MCDistCache_UpdateOnFirstAck ----
(* Model of DistCache: phase 1 ends at the first invalidation acknowledgement *)
EXTENDS DistCache
CONSTANTS k1, n1, n2
\* Independent hash partitions: the spine layer puts every key on n1, the
\* leaf layer puts k1 on n2.
PlaceMap == [l \in Layer |-> [k \in Key |-> IF l = "spine" THEN n1 ELSE n2]]
\* Clients are interchangeable (write and read ids are global, not per client).
ClientSymmetry == Permutations(Client)
====
