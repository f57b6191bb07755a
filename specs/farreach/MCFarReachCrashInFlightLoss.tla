---- MODULE MCFarReachCrashInFlightLoss ----
(* Model of FarReach: 1 key, 2 clients: snapshot, eviction, switch crash and recovery, 1 loss,     *)
(* 1 write retry; the requests already sent towards the server survive the crash.                 *)
EXTENDS FarReach
CONSTANTS k1, s1
\* Keys are partitioned over the servers round-robin.
OwnerMap == [k \in Key |-> s1]
\* Clients are interchangeable (write and read ids are global, not per client).
ClientSymmetry == Permutations(Client)
RetryBudget == 1
On == TRUE
====
