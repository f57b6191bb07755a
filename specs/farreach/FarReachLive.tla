---------------------------- MODULE FarReachLive ----------------------------
(***************************************************************************)
(* Liveness of FarReach under fairness (issue 13, item 5).                 *)
(*                                                                         *)
(* Fairness.  Weakly fair: every system step -- a server handling a        *)
(* request, the switch or a client taking a reply, the controller handling *)
(* a hot report or an eviction acknowledgement, validating an admission,   *)
(* re-sending a lost EVICT_STORE or SEQ_PROBE (FillBySeen), loading and    *)
(* finishing a snapshot,                                                   *)
(* recovering.  Strongly fair: a snapshot start (SnapStart is enabled      *)
(* only while no snapshot runs, and a snapshot may be running each time    *)
(* it is needed, so only strong fairness forces the next one).  Not fair:  *)
(* clients starting operations or giving up, hot reports, eviction starts  *)
(* (the policy), losses, duplicates and crashes: faults are bounded by the *)
(* .cfg.  Delivery is fair per message type, not per message: a message    *)
(* could only starve behind infinitely many of its own type, which the    *)
(* bounded workloads cannot produce.                                       *)
(*                                                                         *)
(* Snapshots are periodic in the paper; here the controller starts one     *)
(* when some client preserves a record (SnapWanted <- SomethingPreserved   *)
(* in the .cfg), so the bounded budget MaxSnap is not spent before the    *)
(* writes it is needed for.                                                *)
(*                                                                         *)
(* Release rule.  The paper's SNAPSHOT_DONE announces, per key cached at  *)
(* the snapshot point, the seq the snapshot holds.  A client then keeps a  *)
(* record for ever (until a switch crash) when its key was evicted since   *)
(* the write and is not cached at the next snapshot point, or is cached    *)
(* again but outdated (re-admitted from the server's older report) and    *)
(* nobody reads it: MCFarReachLive_PaperRelease, a LIMITATION, finds the   *)
(* second.  The implementation's SNAPSHOT_DONE also covers the seq a      *)
(* server acknowledged for an eviction since the last snapshot            *)
(* (FarReachClient, FarReachReplay.requireSameRelease).  ReleaseStored     *)
(* generalises that: a record is released once the snapshot or its key's   *)
(* server holds its seq or newer.  Both are durable (recovery keeps the   *)
(* newer of the server's record and the replayed ones), so NoLostWrites is *)
(* checked with it.  (The server's stored seq stands for the seq the       *)
(* controller learns from acknowledgements; the model lets it read it.)    *)
(*                                                                         *)
(* Buggy rules (each named in MANIFEST with the property it breaks):       *)
(*   AckOnlyIfNewer  - the server acknowledges EVICT_STORE only if it      *)
(*                     stored the record as newer: an eviction of a record *)
(*                     the server already holds never finishes.            *)
(*   RecoverNeedsSnapshot - recovery waits for a completed snapshot: a     *)
(*                     crash before the first snapshot is never recovered. *)
(*   StrictAccepted  - a GET_FOR_CACHE reply marks latest only if its seq  *)
(*                     exceeds the counter: an outdated record whose       *)
(*                     server holds the newest write stays outdated.       *)
(***************************************************************************)
EXTENDS FarReach

SomethingPreserved == \E c \in Client, k \in Key : pres[c][k] /= NoRec

\* (Stated in full: the .cfg replaces ReleaseCovered by it.)
ReleaseStored(r, k) == (snap'[k] /= NoRec /\ r.s <= snap'[k].s) \/ r.s <= store[k].s

AckOnlyIfNewer(cur, r) == r.s > cur.s
RecoverNeedsSnapshot == \E k \in Key : snap[k] /= NoRec
StrictAccepted(rec, k) == rec.s > ctr[k]

\* Delivering one message of type t (never the duplicate-keeping variant).
Deliver(t) ==
    \E m \in net :
        /\ m.t = t
        /\ \/ ServerPut(m, FALSE) \/ ServerGet(m, FALSE) \/ ServerEvict(m, FALSE)
           \/ ClientPutReply(m) \/ ClientGetReply(m) \/ SwitchGetReply(m, FALSE)
           \/ AdmitInstall(m, FALSE) \/ DiscardHot(m) \/ EvictFinish(m, FALSE) \/ DiscardAck(m)
           \/ ServerProbe(m, FALSE) \/ AdmitFloor(m, FALSE) \/ DiscardProbeReply(m)

MsgTypes == {"put", "putR", "get", "getR", "getRC", "hot", "evict", "evictAck", "probe", "probeR"}

Fairness ==
    /\ \A t \in MsgTypes : WF_vars(Deliver(t))
    /\ \A k \in Key : WF_vars(AdmitValidate(k)) /\ WF_vars(EvictResend(k)) /\ WF_vars(SnapLoad(k))
                     /\ WF_vars(ProbeResend(k))
    /\ SF_vars(SnapStart)
    /\ WF_vars(SnapFinish)
    /\ WF_vars(Recover)

FairSpec == Spec /\ Fairness

-----------------------------------------------------------------------------
(* Properties *)

\* §3.3: every eviction the controller starts finishes (or is abandoned by
\* a switch crash, which clears the cache).
EvictionsFinish == \A k \in Key : evRec[k] /= NoRec ~> evRec[k] = NoRec

\* §3.4: after a switch crash the recovery finishes.
RecoveryFinishes == ~up ~> up

\* §3.2 rule (ii): a cached record that is outdated while a GET_FOR_CACHE for
\* it is in flight becomes latest or leaves the cache.  (The reply is not
\* retried: a model that loses it can leave the record outdated until the
\* next read, so this property is checked only without loss.)  A reply a
\* server produced before the last recovery fenced it (seq below the fence)
\* is no refresh: the guard refuses it, rightly.  Such a reply survives a
\* crash only with CrashKeepsServerBound; otherwise every reply in flight
\* after a recovery is at or above the fence.
Refreshing(k) ==
    /\ Hit(k) /\ ~latest[k]
    /\ \E m \in net : m.k = k /\ ((m.t = "getRC" /\ m.rec.s >= fence) \/ (m.t = "get" /\ m.cons))
OutdatedResolved == \A k \in Key : Refreshing(k) ~> (latest[k] \/ ~InCache(k))

\* The same for a refresh the counter guard can accept: the server holds a
\* record at or above the switch's counter.  Weaker than OutdatedResolved, and
\* kept for the variant that refutes it (MCFarReachLive_StrictAccepted).
\* Without the server fence, after a switch recovery every counter is at the
\* new incarnation's base, above the seq of every record, so no reply passes
\* the guard until the key's next write: OutdatedResolved fails there (the
\* buggy variant MCFarReachLive_NoFence) while this one holds.
RefreshAcceptable(k) == store[k].s >= ctr[k]
OutdatedResolvedOnceWritten ==
    \A k \in Key : (Refreshing(k) /\ RefreshAcceptable(k)) ~> (latest[k] \/ ~InCache(k))

\* §3.4: every record a client preserves is eventually released.
PreservedReleased ==
    \A c \in Client, k \in Key : pres[c][k] /= NoRec ~> pres[c][k] = NoRec
=============================================================================
