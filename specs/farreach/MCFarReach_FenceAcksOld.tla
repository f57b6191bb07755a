---- MODULE MCFarReach_FenceAcksOld ----
(* Buggy variant: a fenced server acknowledges a PUT_SEQ of the crashed switch that it refuses to  *)
(* store (FencedRecordStore neither stores nor acknowledges it).                                  *)
EXTENDS FarReach
CONSTANTS k1, s1
\* Keys are partitioned over the servers round-robin.
OwnerMap == [k \in Key |-> s1]
\* Clients are interchangeable (write and read ids are global, not per client).
ClientSymmetry == Permutations(Client)
On == TRUE
====
