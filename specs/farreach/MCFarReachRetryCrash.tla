---- MODULE MCFarReachRetryCrash ----
(* Model of FarReach: 1 key, 2 clients: admission, 1 write retry, 1 loss, a snapshot and a switch *)
(* crash with recovery: a retry racing its first copy across the crash (issue 13: retries + crash). *)
EXTENDS FarReach
CONSTANTS k1, s1
OwnerMap == [k \in Key |-> s1]
ClientSymmetry == Permutations(Client)
\* ClientRetry's budget (MaxRetry is a definition in FarReach.tla, 0 unless overridden).
RetryBudget == 1
====
