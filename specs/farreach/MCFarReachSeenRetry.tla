---- MODULE MCFarReachSeenRetry ----
(* FarReach with FillBySeen: 1 key, 2 clients: admission (no eviction), 1 write retry, 1 loss,  *)
(* 1 duplicate.  Retries race their first copies, losses and duplicates of PUT_SEQ / PUT_REPLY.    *)
EXTENDS FarReach
CONSTANTS k1, s1
OwnerMap == [k \in Key |-> s1]
ClientSymmetry == Permutations(Client)
\* ClientRetry's budget (MaxRetry is a definition in FarReach.tla, 0 unless overridden).
RetryBudget == 1
SeenOn == TRUE
====
