--------------------------- MODULE FarReachTrace ---------------------------
(***************************************************************************)
(* Trace validation of FarReach runs (implementation -> spec).            *)
(*                                                                         *)
(* Trace is one simulated rack run, converted by impl-java/tracecheck from *)
(* the events the Java nodes emitted (docs/conformance.md, "Trace          *)
(* validation").  The cursor l points at the next event.  An observed      *)
(* event may only happen as the FarReach action it names, with the         *)
(* parameters it recorded, and advances the cursor; between events TLC may *)
(* take the steps nobody observes (the switch's own steps are folded into  *)
(* the client and controller actions as in FarReach.tla; here only        *)
(* message losses are left unobserved).  The run is admitted              *)
(* iff some behaviour of the spec consumes the whole trace: CursorReport   *)
(* then prints a cursor past the last event and stops TLC.                 *)
(*                                                                         *)
(* Abstractions (each also in docs/conformance.md):                        *)
(*  - no client crashes, no snapshot abandoned by a live controller: the   *)
(*    converter refuses runs that contain them (MaxClientCrash = 0);        *)
(*  - a controller restart is CtlRestart (below); a server restart is      *)
(*    nothing but the loss of the messages it missed (its store is         *)
(*    durable, docs/conformance.md);                                        *)
(*  - a write is numbered once per client copy (farreach.p4, step 4): a    *)
(*    retransmission or a duplicate of the client's last numbered write    *)
(*    gets its first seq again (SwitchWrite); values above 128 bytes       *)
(*    (BigWrites) are never cached (FR-9);                                  *)
(*  - a switch crash is observed (the simulator records it) and is         *)
(*    SwitchCrash; the implementation's multi-step recovery is one Recover *)
(*    at the moment its gate opens, checked by the records the servers     *)
(*    hold after the replay and the records re-admitted; server events of  *)
(*    the old switch's traffic that happened after the crash are placed    *)
(*    before it (a message delivered after the crash is one delivered     *)
(*    just before it); seqs of a restarted switch are mapped to the spec's *)
(*    (its base (g-1)*2^24 -> the server's seq at recovery);               *)
(*    a delete is a write (its id stands for the deleted record);           *)
(*  - values are write ids numbered in the order of the writes' first      *)
(*    copies at the switch (the order the switch serialised them, unless a  *)
(*    first copy was lost: ids are then only names, seqs order the         *)
(*    records), 0 = no record; sequence numbers are                         *)
(*    the switch's per-slot numbers (equal to the spec's per-key counter  *)
(*    while no two keys of the run share a slot and the switch never       *)
(*    restarted);                                                           *)
(*  - client steps are placed where the rack recorded the switch           *)
(*    processing them (switchIn/switchOut events); a request the switch    *)
(*    never processed (lost before it, or dropped before the switch was    *)
(*    programmed) is "Unprocessed": it opens the client's operation        *)
(*    without touching the switch.  A read nothing saw is always so (reads *)
(*    change no switch register);                                           *)
(*  - hot reports are not observed: the converter places one before each  *)
(*    admission (HotReportPlacement.java); losses happen only where a      *)
(*    client gives up or retransmits next, or where the switch sent a      *)
(*    reply the client never got (the only places a loss is visible);     *)
(*  - duplicates: a server event the converter saw again later is taken    *)
(*    with "deliver and keep" (dup = TRUE); duplicated replies, which      *)
(*    receivers ignore, are not modelled.                                  *)
(***************************************************************************)
\* FarReachTraceData is generated per run by impl-java/tracecheck: it defines
\* Trace, the run as a sequence of event records (field e names the event).
\* A definition rather than a CONSTANT so that TLC evaluates it once (a
\* constant overridden with <- in the .cfg is re-evaluated at every use).
EXTENDS FarReach, Sequences, FarReachTraceData

VARIABLE l       \* cursor: index of the next event of Trace

\* The switch's record of each client's last numbered write is FarReach.tla's
\* lastNum, kept only while MaxRetry > 0; the generated models set
\* MaxRetry <- TraceMaxRetry.  ClientRetry is not a trace step (SwitchWrite
\* below takes every copy), so the value only switches the record on.
TraceMaxRetry == 1

traceVars == <<vars, l>>
\* The VIEW of the generated models: states that differ only in the action
\* label (e.g. two losses taken in either order) are one state.
TraceView == <<viewVars, l>>

Ev == Trace[l]
TRec(v, s) == [v |-> v, s |-> s]

TraceInit == Init /\ l = 1

-----------------------------------------------------------------------------
(* A request that never reached the switch's pipeline: the client's        *)
(* operation is open, nothing else changes (as ClientWriteDropped /        *)
(* ClientReadDropped, whose only difference is the guard ~up).             *)
UnprocessedWrite(c, k) ==
    /\ up /\ pend[c] = NoOp /\ nW < MaxWrites
    /\ nW' = nW + 1
    /\ pend' = [pend EXCEPT ![c] = [t |-> "w", k |-> k, id |-> nW + 1, floor |-> 0]]
    /\ act' = [a |-> "UnprocessedWrite", c |-> c, k |-> k, w |-> nW + 1]
    /\ UNCHANGED <<switchVars, serverVars, ctrlVars, pres, net,
                   nR, nLoss, nDup, nAdmit, nEvict, nSnap, nSwCrash, nClCrash, nRetry, nFs, ghostVars>>

UnprocessedRead(c, k) ==
    /\ up /\ pend[c] = NoOp /\ nR < MaxReads
    /\ nR' = nR + 1
    /\ pend' = [pend EXCEPT ![c] = [t |-> "r", k |-> k, id |-> nR + 1, floor |-> doneMax[k]]]
    /\ act' = [a |-> "UnprocessedRead", c |-> c, k |-> k, r |-> nR + 1]
    /\ UNCHANGED <<switchVars, serverVars, ctrlVars, pres, net,
                   nW, nLoss, nDup, nAdmit, nEvict, nSnap, nSwCrash, nClCrash, nRetry, nFs, ghostVars>>

-----------------------------------------------------------------------------
(* Observed events.  e.how: "hit" = answered by the switch, "fwd" = seen  *)
(* by a server, "lost" = forwarded and lost before any server saw it,      *)
(* "early" = no trace, sent before the switch was known to process         *)
(* requests (lost, or never processed), "dropped" = reached the switch     *)
(* while it was down or recovering.  s = -1: the seq was not observed.    *)

\* how = "open": the write's first copy is an "attempt" event of its own (it
\* was lost, or its value is too long to cache); the operation opens here.
ObsWrite(e) ==
    /\ e.e = "write" /\ nW + 1 = e.w
    /\ \/ e.how = "hit" /\ ClientWriteHit(e.c, e.k) /\ act'.s = e.s
       \/ e.how = "fwd" /\ ClientWriteForward(e.c, e.k) /\ (e.s >= 0 => act'.s = e.s)
       \/ e.how = "open" /\ UnprocessedWrite(e.c, e.k)
       \/ e.how = "dropped" /\ ClientWriteDropped(e.c, e.k)

\* One copy of client c's pending write reaching the switch's pipeline
\* (farreach.p4, steps 4 and 5).  A copy of the client's last numbered write
\* (a retransmission after a timeout, or a duplicate) gets that write's seq
\* again; it is stale if the key has been numbered since, and then only
\* relayed to the server (which keeps the higher seq: applied at most once).
\* Any other write gets the key's next seq.  A write that is not stale is
\* absorbed by a valid, not to-be-evicted cached record unless its value is
\* too long to cache (FR-9: the record is then marked outdated and
\* to-be-evicted, as for a write to a to-be-evicted record, §3.3).
\* how: "hit" = the switch's answer reached the client, "hitLost" = the switch
\* answered and the answer was lost, "fwd" = forwarded, "silent" = nothing of
\* it was seen (answer or PUT_SEQ lost), "fwdLost" = the switch neither
\* answered nor dropped it (the rack recorded it reaching the switch and no
\* answer): forwarded, then lost.  obs: the seq observed (-1: none).
SwitchWrite(c, how, obs) ==
    LET w == pend[c].id
        k == pend[c].k
        copy == lastNum[c].w = w
        s == IF copy THEN lastNum[c].s ELSE ctr[k] + 1
        stale == copy /\ s /= ctr[k]
        big == w \in BigWrites
        absorbed == ~stale /\ Hit(k) /\ ~tbe[k] /\ ~big
    IN /\ up /\ pend[c].t = "w"
       /\ obs >= 0 => obs = s
       /\ Numbered(c, w, s)
       /\ ctr' = [ctr EXCEPT ![k] = Max(@, s)]
       /\ IF absorbed
          THEN /\ how \in {"hit", "hitLost", "silent"}
               /\ SendOriginal(k)
               /\ crec' = [crec EXCEPT ![k] = [v |-> w, s |-> s]]
               /\ latest' = [latest EXCEPT ![k] = TRUE]
               /\ UNCHANGED <<tbe, net, nFs>>
               /\ IF how = "hit"
                  THEN /\ pend' = [pend EXCEPT ![c] = NoOp]
                       /\ pres' = [pres EXCEPT ![c][k] = [v |-> w, s |-> s]]
                       /\ doneMax' = [doneMax EXCEPT ![k] = Max(@, w)]
                       /\ Complete(k, w, TRUE, opFloor[c])
                       /\ Retire(c)
                  ELSE UNCHANGED <<pend, pres, doneMax, linVars>>
          ELSE /\ how \in {"fwd", "fwdLost", "silent"}
               /\ net' = net \cup {[t |-> "put", c |-> c, k |-> k, id |-> w, s |-> s, fs |-> NextFs]}
               /\ SentFs
               /\ IF ~stale /\ Hit(k) /\ (tbe[k] \/ big)
                  THEN /\ latest' = [latest EXCEPT ![k] = FALSE]
                       /\ tbe' = [tbe EXCEPT ![k] = TRUE]
                  ELSE UNCHANGED <<latest, tbe>>
               /\ UNCHANGED <<crec, snapSent, snapOrig, pend, pres, doneMax, linVars>>
       /\ SeeSeq(k, s)
       /\ act' = [a |-> "SwitchWrite", c |-> c, k |-> k, w |-> w, s |-> s]
       /\ UNCHANGED <<up, valid, snapOn, fillFloor, serverVars, admitting, probing, evRec, snapKeys, snapLoad, snap,
                      nW, nR, nLoss, nDup, nAdmit, nEvict, nSnap, nSwCrash, nClCrash, nRetry,
                      lastRead, pointCache, snapTruth, ackFloor, wkey>>

\* A copy of client c's pending write w: the first one after "open", or a
\* retransmission (whose predecessor is lost: nothing of it is in flight).  A
\* silent copy may also have been lost before the switch, or dropped by it;
\* an "unseen" one never reached the switch (the rack records the switch's
\* processing of client messages).
ObsAttempt(e) ==
    /\ e.e = "attempt" /\ pend[e.c].t = "w" /\ pend[e.c].id = e.w /\ ~OpMsgInFlight(e.c)
    /\ \/ SwitchWrite(e.c, e.how, e.s)
       \/ e.how \in {"silent", "unseen"} /\ UNCHANGED vars

\* A read nothing saw ("lost", "early") changed nothing at the switch,
\* whatever happened to it (lost before or after it, answered by it with the
\* answer lost, or dropped before the switch was programmed): reads never
\* change the switch's registers, only replies do.
ObsRead(e) ==
    /\ e.e = "read" /\ nR + 1 = e.r
    /\ \/ e.how = "hit" /\ crec[e.k] = TRec(e.v, e.s) /\ ClientReadHit(e.c, e.k)
       \/ e.how = "fwd" /\ ClientReadForward(e.c, e.k)
       \/ e.how \in {"lost", "early"} /\ UnprocessedRead(e.c, e.k)
       \/ e.how = "dropped" /\ ClientReadDropped(e.c, e.k)

ObsGiveUp(e) == e.e = "giveUp" /\ ClientGiveUp(e.c)

ObsPutReply(e) ==
    /\ e.e = "putReply" /\ pend[e.c].t = "w" /\ pend[e.c].id = e.w
    /\ \E m \in net : /\ m.t = "putR" /\ m.c = e.c /\ m.id = e.w /\ m.s = e.s
                      /\ ClientPutReply(m)

\* A value too long to cache (FR-9: a write of BigWrites): the switch relays
\* the reply and leaves the cache alone, SwitchGetReply's ELSE branch, said
\* without searching.  (Until 2026-11-24 this also covered a key not written
\* since a recovery, whose replies could not pass the latest guard; recovery's
\* server fence now lets them, FarReach.tla's Fenced.)
RelayGetReplyKeepingCache(m) ==
    /\ up /\ m \in net /\ m.t = "getRC" /\ AtHead(m)
    /\ net' = net \ {m}
    /\ pend[m.c].t = "r" /\ pend[m.c].id = m.id
    /\ pend' = [pend EXCEPT ![m.c] = NoOp]
    /\ lastRead' = [floor |-> pend[m.c].floor, got |-> m.rec.v]
    /\ Complete(m.k, m.rec.v, FALSE, opFloor[m.c])
    /\ Retire(m.c)
    /\ SeeReply(m.k, m.rec.s)    \* FR-18: the reply passes the switch
    /\ act' = [a |-> "SwitchGetReply", c |-> m.c, k |-> m.k, r |-> m.id, rec |-> m.rec, dup |-> FALSE]
    /\ UNCHANGED <<up, crec, valid, tbe, ctr, snapOn, snapSent, lastNum, fillFloor, serverVars, ctrlVars, pres, cntVars,
                   doneMax, pointCache, snapTruth, ackFloor, wkey>>

\* The reply reaches the client relayed by the switch: a GET reply, or a
\* GET_FOR_CACHE reply the switch acts on (SwitchGetReply) on the way.
ObsGetReply(e) ==
    /\ e.e = "getReply" /\ pend[e.c].t = "r"
    /\ \E m \in net : /\ m.t \in {"getR", "getRC"} /\ m.c = e.c /\ m.id = pend[e.c].id
                      /\ m.rec = TRec(e.v, e.s)
                      /\ CASE m.t = "getR" -> ClientGetReply(m)
                           [] m.rec.v \in BigWrites -> RelayGetReplyKeepingCache(m)
                           [] OTHER -> SwitchGetReply(m, FALSE)

ObsServerPut(e) ==
    /\ e.e = "serverPut"
    /\ \E m \in net : /\ m.t = "put" /\ m.c = e.c /\ m.id = e.w /\ m.s = e.s
                      /\ ServerPut(m, e.dup)
                      /\ store'[m.k] = TRec(e.sv, e.ss)

ObsServerGet(e) ==
    /\ e.e = "serverGet"
    /\ \E m \in net : /\ m.t = "get" /\ m.c = e.c /\ m.id = e.r /\ m.k = e.k
                      /\ ServerGet(m, e.dup)
                      /\ act'.rec = TRec(e.v, e.s)
                      /\ store'[m.k] = TRec(e.sv, e.ss)

ObsServerEvict(e) ==
    /\ e.e = "serverEvict"
    /\ \E m \in net : /\ m.t = "evict" /\ m.k = e.k /\ m.rec = TRec(e.v, e.s)
                      /\ ServerEvict(m, e.dup)
                      /\ store'[m.k] = TRec(e.sv, e.ss)

\* A hot report, placed by the converter before the admission it leads to
\* (HotReportPlacement.java says where and why that place loses nothing).
ObsHot(e) == e.e = "hot" /\ store[e.k] = TRec(e.v, e.s) /\ ServerReportHot(e.k)

ObsAdmitInstall(e) ==
    /\ e.e = "admitInstall"
    /\ \E m \in net : m.t = "hot" /\ m.k = e.k /\ m.rec = TRec(e.v, e.s) /\ AdmitInstall(m, FALSE)

ObsAdmitValidate(e) == e.e = "admitValidate" /\ AdmitValidate(e.k)

\* The admission's probe (SEQ_PROBE) answered by the key's server with the seq
\* it holds; a probe the converter saw answered twice (the controller resent
\* it after its reply was lost) is delivered and kept the first time.
ObsServerProbe(e) ==
    /\ e.e = "serverProbe"
    /\ \E m \in net : m.t = "probe" /\ m.k = e.k /\ ServerProbe(m, e.dup) /\ act'.s = e.s

\* The probe's reply sets the record's fill floor (FR-11).
ObsAdmitFloor(e) ==
    /\ e.e = "admitFloor"
    /\ \E m \in net : m.t = "probeR" /\ m.k = e.k /\ m.s = e.s /\ AdmitFloor(m, FALSE)

\* FR-9 marks a record to-be-evicted without the controller (a write too long
\* to cache); the controller's eviction then starts on a marked record.
EvictStartMarked(k) ==
    /\ up /\ nEvict < MaxEvict
    /\ Hit(k) /\ tbe[k] /\ evRec[k] = NoRec
    /\ nEvict' = nEvict + 1
    /\ evRec' = [evRec EXCEPT ![k] = crec[k]]
    /\ net' = net \cup {[t |-> "evict", k |-> k, rec |-> crec[k]]}
    /\ act' = [a |-> "EvictStart", k |-> k, rec |-> crec[k]]
    /\ UNCHANGED <<switchVars, serverVars, admitting, probing, snapKeys, snapOrig, snapLoad, snap, clientVars,
                   nW, nR, nLoss, nDup, nAdmit, nSnap, nSwCrash, nClCrash, nRetry, nFs, ghostVars>>

ObsEvictStart(e) == e.e = "evictStart" /\ (EvictStart(e.k) \/ EvictStartMarked(e.k))

\* The record the controller sent to the server is the one EvictStart loaded
\* (the spec loads and sends in one step; this only checks the record).
ObsEvictStore(e) == e.e = "evictStore" /\ evRec[e.k] = TRec(e.v, e.s) /\ UNCHANGED vars

ObsEvictFinish(e) ==
    /\ e.e = "evictFinish"
    /\ \E m \in net : m.t = "evictAck" /\ m.k = e.k /\ EvictFinish(m, FALSE)

\* Snapshots (§3.4).  The controller loads every record cached at the point
\* (loaded = FALSE: the record changed since the point, so the switch's
\* original stands and the load's record does not matter); the snapshot it
\* keeps must be exactly the spec's.
ObsSnapStart(e) == e.e = "snapStart" /\ SnapStart

ObsSnapLoad(e) ==
    /\ e.e = "snapLoad" /\ SnapLoad(e.k)
    /\ e.loaded => act'.rec = TRec(e.v, e.s)

ObsSnapFinish(e) ==
    /\ e.e = "snapFinish" /\ SnapFinish
    /\ \A k \in Key : IF \E r \in e.snap : r.k = k
                      THEN \E r \in e.snap : r.k = k /\ snap'[k] = TRec(r.v, r.s)
                      ELSE snap'[k] = NoRec

\* Switch crash and zero-loss recovery (§3.4).  The crash is recorded by the
\* simulator.  The implementation's recovery is several controller steps; its
\* effects are checked at the one Recover step: e.stores holds, per key replayed,
\* the record its server holds after the replay (sv, ss); every other key's
\* record must stay as it is.  e.crec holds the records re-admitted into the
\* cache (the spec's crec' = snap).
\* FarReach.tla's SwitchCrash, except that hot reports stay in flight.  The
\* spec's network also stands for the controller's queue of reports (its
\* AdmitInstall takes a report off the network); the implementation's
\* controller queues reports while the switch is down and admits them after
\* recovery, so a report that passed the switch before the crash survives it.
\* (Admitting such a record is safe: it is installed outdated.)  Every other
\* variable changes exactly as in SwitchCrash.
CrashKeepingReports ==
    /\ up /\ nSwCrash < MaxSwitchCrash
    /\ nSwCrash' = nSwCrash + 1
    /\ up' = FALSE
    /\ crec' = [k \in Key |-> NoRec]
    /\ valid' = [k \in Key |-> FALSE]
    /\ latest' = [k \in Key |-> FALSE]
    /\ tbe' = [k \in Key |-> FALSE]
    /\ ctr' = [k \in Key |-> 0]
    /\ snapOn' = FALSE
    /\ snapSent' = [k \in Key |-> FALSE]
    /\ lastNum' = [c \in Client |-> NoNum]
    /\ seen' = [k \in Key |-> 0]
    /\ fillFloor' = [k \in Key |-> 0]
    /\ admitting' = [k \in Key |-> FALSE]
    /\ probing' = [k \in Key |-> 0]
    /\ evRec' = [k \in Key |-> NoRec]
    /\ snapKeys' = {}
    /\ snapOrig' = [k \in Key |-> NoRec]
    /\ snapLoad' = [k \in Key |-> NoRec]
    /\ net' = {m \in net : m.t = "hot"}
    /\ ackFloor' = doneMax
    /\ act' = [a |-> "SwitchCrash"]
    /\ UNCHANGED <<serverVars, snap, clientVars, nW, nR, nLoss, nDup, nAdmit, nEvict, nSnap, nClCrash, nRetry, nFs,
                   doneMax, lastRead, pointCache, snapTruth, linVars>>

ObsCrash(e) == e.e = "crash" /\ CrashKeepingReports

\* A controller restart (not in FarReach.tla, whose controller never crashes),
\* placed before the restarted controller's first event.  It loses what it
\* held in memory: a snapshot in progress is abandoned (Relearn clears the
\* switch's snapshot epoch; the last completed snapshot is durable), an
\* admission installed but not yet valid is removed (Relearn's Removal).  It
\* resumes every eviction of a record marked to-be-evicted at the step that
\* sends the record to the server, including records FR-9 marked, whose
\* eviction starts here (Relearn).  Hot reports placed by the converter stay
\* in flight (they are placed before the admission they lead to).
CtlRestart ==
    /\ snapOn' = FALSE
    /\ snapKeys' = {}
    /\ snapOrig' = [k \in Key |-> NoRec]
    /\ snapLoad' = [k \in Key |-> NoRec]
    /\ crec' = [k \in Key |-> IF admitting[k] THEN NoRec ELSE crec[k]]
    /\ admitting' = [k \in Key |-> FALSE]
    /\ probing' = [k \in Key |-> 0]
    /\ evRec' = [k \in Key |-> IF tbe[k] /\ evRec[k] = NoRec THEN crec[k] ELSE evRec[k]]
    /\ net' = net \cup {[t |-> "evict", k |-> k, rec |-> crec[k]] : k \in {j \in Key : tbe[j] /\ evRec[j] = NoRec}}
    /\ act' = [a |-> "CtlRestart"]
    /\ UNCHANGED <<up, lastNum, valid, latest, tbe, ctr, snapSent, seen, fillFloor, serverVars, snap, clientVars, cntVars, ghostVars>>

ObsCtlRestart(e) == e.e = "ctlRestart" /\ CtlRestart

ObsRecover(e) ==
    /\ e.e = "recover" /\ Recover
    /\ \A k \in Key : IF \E r \in e.stores : r.k = k
                      THEN \E r \in e.stores : r.k = k /\ store'[k] = Fenced(TRec(r.sv, r.ss))
                      ELSE store'[k] = Fenced(store[k])
    /\ \A k \in Key : IF \E r \in e.crec : r.k = k
                      THEN \E r \in e.crec : r.k = k /\ crec'[k] = TRec(r.v, r.s)
                      ELSE crec'[k] = NoRec

\* A GET_FOR_CACHE reply lost after the switch acted on it (on the switch-client
\* link): SwitchGetReply's effect on the cache without the client's part.
ReplyLostAfterSwitch(m) ==
    /\ up /\ m \in net /\ m.t = "getRC"
    /\ LET k == m.k
           ok == /\ Hit(k) /\ ~latest[k] /\ ~tbe[k] /\ GetReplyAccepted(m.rec, k)
                 /\ m.rec.v \notin BigWrites
       IN IF ok
          THEN /\ SendOriginal(k)
               /\ crec' = [crec EXCEPT ![k] = m.rec]
               /\ latest' = [latest EXCEPT ![k] = TRUE]
               /\ SeeSeq(k, m.rec.s)
          ELSE /\ SeeReply(k, m.rec.s)
               /\ UNCHANGED <<crec, snapSent, snapOrig>>
    /\ net' = net \ {m}
    /\ act' = [a |-> "ReplyLostAfterSwitch", m |-> m]
    /\ UNCHANGED <<up, lastNum, valid, tbe, ctr, snapOn, fillFloor, serverVars, admitting, probing, evRec, snapKeys, snapLoad, snap,
                   clientVars, cntVars, ghostVars>>

\* Observed (the rack records what the switch sends to clients): the switch
\* sent the reply of client c's pending operation, which never arrived.  A
\* GET_FOR_CACHE reply did its work at the switch first; the switch relays
\* any other reply unchanged, so losing it is Lose.
\* A server's GET or PUT reply the switch relayed (FR-18: it sees its seq on
\* the way, SeeReply) and the switch-client link then lost.
RelayedReplyLost(m) ==
    /\ m \in net /\ nLoss < MaxLoss
    /\ net' = net \ {m}
    /\ nLoss' = nLoss + 1
    /\ SeeReply(m.k, IF m.t = "putR" THEN m.s ELSE m.rec.s)
    /\ act' = [a |-> "Lose", m |-> m]
    /\ UNCHANGED <<up, crec, valid, tbe, ctr, snapOn, snapSent, lastNum, fillFloor, serverVars, ctrlVars, clientVars,
                   nW, nR, nDup, nAdmit, nEvict, nSnap, nSwCrash, nClCrash, nRetry, nFs, ghostVars>>

ObsReplyLost(e) ==
    /\ e.e = "replyLost" /\ pend[e.c] /= NoOp
    /\ \E m \in net : /\ m.t \in {"putR", "getR", "getRC"}
                      /\ m.c = e.c /\ m.id = pend[e.c].id
                      /\ (m.t = "putR") = (pend[e.c].t = "w")
                      /\ IF m.t = "getRC" THEN ReplyLostAfterSwitch(m) ELSE RelayedReplyLost(m)

ObservedOther(e) ==
    \/ ObsRead(e) \/ ObsGiveUp(e) \/ ObsPutReply(e) \/ ObsGetReply(e)
    \/ ObsServerPut(e) \/ ObsServerGet(e) \/ ObsServerEvict(e)
    \/ ObsSnapStart(e) \/ ObsSnapLoad(e) \/ ObsSnapFinish(e)
    \/ ObsRecover(e) \/ ObsCtlRestart(e) \/ ObsReplyLost(e)
    \/ ObsHot(e) \/ ObsAdmitInstall(e) \/ ObsAdmitValidate(e) \/ ObsEvictStart(e) \/ ObsEvictStore(e) \/ ObsEvictFinish(e)
    \/ ObsServerProbe(e) \/ ObsAdmitFloor(e)

Observed(e) == ObsWrite(e) \/ ObsAttempt(e) \/ ObsCrash(e) \/ ObservedOther(e)

-----------------------------------------------------------------------------
(* Unobserved steps, restricted to the ones that can matter (a restriction  *)
(* can only make TLC reject more, never accept a run it would otherwise     *)
(* reject).                                                                *)

\* A loss is visible only through a client giving up or sending its write
\* again: the request or reply of the operation it gives up on (OpMsgInFlight's
\* messages; losing any other message, e.g. a stale duplicated reply, changes
\* nothing observable and only multiplied TLC's states), or a GET_FOR_CACHE
\* reply lost after the switch: with the switch's own events
\* (SwitchFramesTraced) that loss is observed (ObsReplyLost), without them
\* it may happen here.
LossBeforeGiveUp ==
    /\ Ev.e \in {"giveUp", "attempt"}
    /\ \E m \in net : /\ m.t \in {"put", "putR", "get", "getR", "getRC"}
                      /\ m.c = Ev.c /\ m.id = pend[Ev.c].id
                      /\ (m.t \in {"put", "putR"}) = (pend[Ev.c].t = "w")
                      /\ \/ Lose(m)
                         \/ ~SwitchFramesTraced /\ m.t = "getRC" /\ ReplyLostAfterSwitch(m)
                         \/ ~SwitchFramesTraced /\ m.t \in {"putR", "getR"} /\ RelayedReplyLost(m)

TraceNext ==
    \/ l <= Len(Trace) /\ Observed(Ev) /\ l' = l + 1
    \/ l <= Len(Trace) /\ LossBeforeGiveUp /\ UNCHANGED l

TraceSpec == TraceInit /\ [][TraceNext]_traceVars

\* Violated exactly when the whole trace has been matched: "accepted".  Not
\* checked by the generated models: a violation makes TLC print the whole
\* behaviour, every state of a run of tens of thousands of events (minutes).
\* CursorReport signals the end instead.
TraceNotFinished == l <= Len(Trace)

\* State constraint that never prunes: prints the cursor whenever it goes
\* further than before, so a rejection can name the event it stopped at.  A
\* cursor past the last event means a behaviour matched the whole trace:
\* "accepted"; TLC is told to stop there (TLCSet("exit")).
ASSUME TLCSet(1, 0)
CursorReport ==
    IF l > TLCGet(1)
    THEN /\ TLCSet(1, l)
         /\ PrintT(<<"trace-cursor", l>>)
         /\ (l > Len(Trace) => TLCSet("exit", TRUE))
    ELSE TRUE
=============================================================================
