---- MODULE MCFarReachCrashInFlight ----
(* Model of FarReach: 1 key, 2 clients: snapshot, eviction, switch crash and recovery, with the  *)
(* requests already on their way to the server surviving the crash (CrashKeepsServerBound).       *)
EXTENDS FarReach
CONSTANTS k1, s1
\* Keys are partitioned over the servers round-robin.
OwnerMap == [k \in Key |-> s1]
\* Clients are interchangeable (write and read ids are global, not per client).
ClientSymmetry == Permutations(Client)
On == TRUE
====
