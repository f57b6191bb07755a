---- MODULE MCFarReachRandom ----
(* Model of FarReach for TLC random simulation (./innet verify --simulate; MANIFEST tier sim): 3 keys on 2 servers, 3 clients, 2 cache slots, 2 losses, 2 duplicates, 2 snapshots, 1 switch crash.  Far too big for breadth-first search; no VIEW or SYMMETRY (simulation stores no states). *)
EXTENDS FarReach
CONSTANTS k1, k2, k3, s1, s2
\* Keys are partitioned over the servers round-robin.
OwnerMap == [k \in Key |-> IF k = k2 THEN s2 ELSE s1]
\* Clients are interchangeable (write and read ids are global, not per client).
ClientSymmetry == Permutations(Client)
====
