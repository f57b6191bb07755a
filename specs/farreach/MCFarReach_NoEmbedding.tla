---- MODULE MCFarReach_NoEmbedding ----
(* Model of FarReach: eviction without record embedding (a read overtakes PUT_SEQ and EVICT_STORE) *)
EXTENDS FarReach
CONSTANTS k1, s1
\* Keys are partitioned over the servers round-robin.
OwnerMap == [k \in Key |-> s1]
\* Clients are interchangeable (write and read ids are global, not per client).
ClientSymmetry == Permutations(Client)
====
