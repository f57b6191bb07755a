---- MODULE MCFarReach_FenceBeforeReplay ----
(* Model of FarReach: recovery fences the servers before it replays the preserved records: the fence refuses them *)
EXTENDS FarReach
CONSTANTS k1, s1
\* Keys are partitioned over the servers round-robin.
OwnerMap == [k \in Key |-> s1]
\* Clients are interchangeable (write and read ids are global, not per client).
ClientSymmetry == Permutations(Client)
BugOn == TRUE
====
