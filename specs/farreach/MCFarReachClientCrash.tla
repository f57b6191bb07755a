---- MODULE MCFarReachClientCrash ----
(* Model of FarReach: LIMITATION: a client crash before a switch crash loses the writes only it preserved (paper §3.4) *)
EXTENDS FarReach
CONSTANTS k1, s1
\* Keys are partitioned over the servers round-robin.
OwnerMap == [k \in Key |-> s1]
\* Clients are interchangeable (write and read ids are global, not per client).
ClientSymmetry == Permutations(Client)
====
