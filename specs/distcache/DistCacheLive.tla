--------------------------- MODULE DistCacheLive ---------------------------
(***************************************************************************)
(* Liveness of DistCache's coherence protocol (DistCache.tla) under        *)
(* fairness.                                                               *)
(*                                                                         *)
(* Weakly fair: every step of a server or a cache switch on a message in   *)
(* flight (per message type), the server's phase-1 timeout                 *)
(* (ServerResendInv), a client's timeout (ClientGiveUp) and the agent's    *)
(* re-fill of a copy that stays invalid (CacheRefetch).  Not fair: clients *)
(* issuing operations, the agents' insertions and evictions, losses,       *)
(* duplicates and cache-switch crashes; the .cfg bounds each.             *)
(*                                                                         *)
(* The agent's timer: a liveness model replaces RefetchDue by NothingDue,  *)
(* so the agent re-fills a copy only when it is invalid and nothing of it  *)
(* is in flight any more (no invalidation or its acknowledgement, no       *)
(* update, no fetch):                                                      *)
(* the timeout innet's agent approximates with its re-fill period.  (A     *)
(* re-fill at any moment is safe, MCDistCacheRefetch, but could spend the  *)
(* bounded insertion budget before a loss.)                                *)
(***************************************************************************)
EXTENDS DistCache

NothingDue(l, k) ==
  /\ ~valid[l][k]
  /\ ~\E m \in net : m.t \in {"inv", "invA", "upd", "fetch"} /\ m.k = k /\ m.l = l

\* A message of type t is handled by a server or a cache switch.
Handle(t) ==
  \E m \in net : /\ m.t = t
                 /\ \/ ServerWrite(m)
                    \/ \E d \in BOOLEAN : \/ ServerInvAck(m, d) \/ ServerGet(m, d) \/ ServerFetch(m, d)
                                          \/ CacheInv(m, d) \/ CacheUpdate(m, d)

Fairness ==
  /\ \A t \in {"put", "get", "inv", "invA", "upd", "fetch"} : WF_vars(Handle(t))
  /\ \A k \in Key, l \in Layer : WF_vars(ServerResendInv(k, l)) /\ WF_vars(CacheRefetch(l, k))
  /\ \A c \in Client : WF_vars(ClientGiveUp(c))

FairSpec == Spec /\ Fairness

-----------------------------------------------------------------------------
\* A write's two-phase update ends: once the server takes a write (phase 1),
\* every copy acknowledges its invalidation and the server applies it.
WritesApplied == \A k \in Key : ~Idle(k) ~> Idle(k)

\* Every client operation completes or its client gives up on it.
OpsEnd == \A c \in Client : pend[c] /= NoOp ~> pend[c] = NoOp

\* A cached copy that is invalid (a write's phase 1, an insertion) answers
\* reads again, or leaves the cache: it does not stay a cached copy that
\* misses every read.
CopiesRevalidate ==
  \A l \in Layer, k \in Key : (cached[l][k] /\ ~valid[l][k]) ~> (valid[l][k] \/ ~cached[l][k])
=============================================================================
