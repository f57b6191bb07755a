---- MODULE MCFarReach_AckWithoutSeq ----
(* Model of FarReach: eviction finished by a duplicated acknowledgement of an earlier eviction *)
EXTENDS FarReach
CONSTANTS k1, s1
\* Keys are partitioned over the servers round-robin.
OwnerMap == [k \in Key |-> s1]
\* Clients are interchangeable (write and read ids are global, not per client).
ClientSymmetry == Permutations(Client)
====
