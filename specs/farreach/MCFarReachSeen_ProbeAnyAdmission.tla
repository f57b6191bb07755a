---- MODULE MCFarReachSeen_ProbeAnyAdmission ----
(* Buggy variant of FillBySeen: the controller takes an earlier admission's probe reply as the floor *)
EXTENDS FarReach
CONSTANTS k1, s1
\* Keys are partitioned over the servers round-robin.
OwnerMap == [k \in Key |-> s1]
\* Clients are interchangeable (write and read ids are global, not per client).
ClientSymmetry == Permutations(Client)
SeenOn == TRUE
====
