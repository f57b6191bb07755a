---- MODULE MCFarReach_UnguardedLatestFifo ----
(* Model of FarReach: the same with FIFO switch<->server links: a reply outlives an eviction and re-admission *)
EXTENDS FarReach
CONSTANTS k1, s1
\* Keys are partitioned over the servers round-robin.
OwnerMap == [k \in Key |-> s1]
\* Clients are interchangeable (write and read ids are global, not per client).
ClientSymmetry == Permutations(Client)
====
