---- MODULE MCFarReach_RetryAcrossCrash ----
(* Buggy variant: a client retries a write that a switch which crashed since had numbered.  The   *)
(* restarted switch has forgotten the first copy and numbers the retry afresh, above a newer write *)
(* of another client, which the retry then overwrites (FarReachClient.mayRetryWrite forbids it).   *)
EXTENDS FarReach
CONSTANTS k1, s1
OwnerMap == [k \in Key |-> s1]
ClientSymmetry == Permutations(Client)
RetryBudget == 1
BugOn == TRUE
====
