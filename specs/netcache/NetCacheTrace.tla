--------------------------- MODULE NetCacheTrace ---------------------------
(***************************************************************************)
(* Trace validation of NetCache runs (implementation -> spec).            *)
(*                                                                         *)
(* Trace is one simulated rack run, converted by impl-java/tracecheck      *)
(* (NetCacheTraceConverter) from the events the Java nodes emitted         *)
(* (docs/conformance.md, "Trace validation", NetCache).  The cursor l      *)
(* points at the next event.  An observed event may only happen as the     *)
(* NetCache action it names, with the parameters it recorded, and         *)
(* advances the cursor; between events TLC may take the one step nobody    *)
(* observes: the loss of a message of an operation its client gives up on  *)
(* next.  (The switch emits nothing, but each of its steps is seen: a      *)
(* request at the client that sent it, a reply at the client it reaches,   *)
(* late and duplicated ones included; controller steps at the controller.) *)
(* The run is admitted iff some behaviour of the spec consumes the whole   *)
(* trace: CursorReport then prints a cursor past the last event and stops  *)
(* TLC (as FarReachTrace.tla does).                                        *)
(*                                                                         *)
(* Abstractions (each also in docs/conformance.md):                        *)
(*  - no host crashes (the converter refuses such runs); deletes are      *)
(*    writes with their own ids (DeleteIds): ClientDelete stages nothing  *)
(*    and a deleted record is NOT_FOUND, so it never refills the cache;   *)
(*    switch restarts are the spec's SwitchRestart with RestartSeqBase,    *)
(*    the implementation's sequence base mapped onto nW + nCrash (the      *)
(*    restarted counters) by the converter;                                *)
(*  - values are write ids in the order the switch numbered the writes,    *)
(*    0 = no value; seqs are the switch's per-slot numbers (equal to the   *)
(*    spec's per-key counters while no two keys of the run share a slot);  *)
(*  - a request the switch never processed (dropped before it was          *)
(*    programmed) is "Unprocessed": it opens the client's operation        *)
(*    without touching the switch.  Only requests the converter found      *)
(*    without any trace of processing, and not between two packets the     *)
(*    switch was seen handling with no restart in between, may be          *)
(*    explained so;                                                        *)
(*  - the switch refills nothing from a NOT_FOUND reply (netcache.p4 NC-8  *)
(*    requires status OK): a GET_FOR_CACHE reply carrying the initial      *)
(*    record (seq 0) or a deleted one is relayed without touching the     *)
(*    cache (NetCache.tla lets it refill, A7, an extra behaviour that      *)
(*    would make the spec predict hits the switch never serves);           *)
(*  - duplicates: a server step or reply the converter saw again later is  *)
(*    taken with "deliver and keep" (dup = TRUE), a plain GET_REPLY too    *)
(*    (GetRKeep: ClientGetReply keeping its message).                      *)
(***************************************************************************)
\* NetCacheTraceData is generated per run by impl-java/tracecheck: it defines
\* Trace, the run as a sequence of event records (field e names the event),
\* and DeleteIds, the write ids that are deletes.
\* A definition rather than a CONSTANT so that TLC evaluates it once.
EXTENDS NetCache, Sequences, NetCacheTraceData

VARIABLE l       \* cursor: index of the next event of Trace

traceVars == <<vars, l>>
\* act only labels steps: leaving it out of the view keeps states few
TraceView == <<viewVars, l>>

Ev == Trace[l]
TRec(v, s) == [v |-> v, s |-> s]

TraceInit == Init /\ l = 1

-----------------------------------------------------------------------------
(* Steps the trace needs beyond NetCache.tla's actions.                     *)

\* A request that never reached the switch's pipeline: the client's operation
\* is open, nothing else changes.
UnprocessedWrite(c, k) ==
    /\ pend[c] = NoOp /\ nW < MaxWrites
    /\ nW' = nW + 1
    /\ pend' = [pend EXCEPT ![c] = [t |-> "w", k |-> k, id |-> nW + 1, floor |-> 0]]
    /\ act' = [a |-> "UnprocessedWrite", c |-> c, k |-> k, w |-> nW + 1]
    /\ UNCHANGED <<switchVars, probing, store, net, nR, nLoss, nDup, nAdmit, nEvict, nCrash, ghostVars>>

UnprocessedRead(c, k) ==
    /\ pend[c] = NoOp /\ nR < MaxReads
    /\ nR' = nR + 1
    /\ pend' = [pend EXCEPT ![c] = [t |-> "r", k |-> k, id |-> nR + 1, floor |-> doneMax[k]]]
    /\ act' = [a |-> "UnprocessedRead", c |-> c, k |-> k, r |-> nR + 1]
    /\ UNCHANGED <<switchVars, probing, store, net, nW, nLoss, nDup, nAdmit, nEvict, nCrash, ghostVars>>

\* NetCache.tla has no deletes; the trace's deletes are writes (ids in
\* DeleteIds) whose record the server answers with NOT_FOUND, as it does
\* for a key never written (the initial record).
NotFound(rec) == rec = Init0 \/ rec.v \in DeleteIds

\* NC-4 for a DEL (netcache.p4: "DEL ... nothing to commit"): numbered and
\* forwarded like a write, and a cached record is invalidated, but nothing is
\* staged (record_seq 0), so no PUT_REPLY commits it: ClientWrite with
\* Admit's rrec update.
ClientDelete(c, k) ==
    /\ pend[c] = NoOp /\ nW < MaxWrites
    /\ LET w == nW + 1
           s == ctr[k] + 1
       IN /\ nW' = w
          /\ ctr' = [ctr EXCEPT ![k] = s]
          /\ IF cached[k]
             THEN /\ valid' = [valid EXCEPT ![k] = FALSE]
                  /\ rrec' = [rrec EXCEPT ![k].s = 0]
             ELSE UNCHANGED <<valid, rrec>>
          /\ seen' = IF FillBySeen /\ cached[k] THEN [seen EXCEPT ![k] = Max(@, s)] ELSE seen
          /\ net' = net \cup {[t |-> "put", c |-> c, k |-> k, id |-> w, s |-> s]}
          /\ pend' = [pend EXCEPT ![c] = [t |-> "w", k |-> k, id |-> w, floor |-> 0]]
          /\ act' = [a |-> "ClientDelete", c |-> c, k |-> k, w |-> w, s |-> s, hit |-> cached[k]]
    /\ UNCHANGED <<cached, fillFloor, probing, store, nR, nLoss, nDup, nAdmit, nEvict, nCrash, ghostVars>>

\* NC-9 for a NOT_FOUND GET_FOR_CACHE_REPLY (the initial or a deleted record):
\* relayed, the cache unchanged (SwitchGetReply without its refill branch)
\* but for FillBySeen's seeing its seq on the way (SeeReply).
GetRCNotFound(m, d) ==
    /\ m \in net /\ m.t = "getRC" /\ NotFound(m.rec) /\ DupOK(d)
    /\ net' = Rest(m, d)
    /\ CountDup(d)
    /\ SeeReply(m.k, m.rec.s)
    /\ Complete(m, FALSE)
    /\ act' = [a |-> "SwitchGetReply", c |-> m.c, k |-> m.k, r |-> m.id, rec |-> m.rec, dup |-> d]
    /\ UNCHANGED <<cached, rrec, ctr, fillFloor, probing, store, nW, nR, nLoss, nAdmit, nEvict, nCrash>>

\* ClientGetReply of a GET_REPLY the network duplicated: the copy stays.
GetRKeep(m) ==
    /\ m \in net /\ m.t = "getR" /\ DupOK(TRUE)
    /\ CountDup(TRUE)
    /\ SeeReply(m.k, m.rec.s)
    /\ Complete(m, FALSE)
    /\ act' = [a |-> "ClientGetReply", c |-> m.c, k |-> m.k, r |-> m.id, v |-> m.rec.v]
    /\ UNCHANGED <<cached, rrec, ctr, fillFloor, probing, store, net, nW, nR, nLoss, nAdmit, nEvict, nCrash>>

-----------------------------------------------------------------------------
(* Observed events.  how: "hit" = answered by the switch, "fwd" = seen by  *)
(* a server or answered by one, "lost" = neither (forwarded and lost),     *)
(* "early" = neither, and the switch may not have been programmed yet      *)
(* (forwarded and lost, or never processed).  s = -1: the sequence number  *)
(* was not observed.                                                       *)
(* stale = TRUE: a reply the client ignored (late or duplicated).          *)

ObsWrite(e) ==
    /\ e.e = "write" /\ nW + 1 = e.w
    /\ \/ e.w \notin DeleteIds /\ ClientWrite(e.c, e.k) /\ (e.s >= 0 => act'.s = e.s)
       \/ e.w \in DeleteIds /\ ClientDelete(e.c, e.k) /\ (e.s >= 0 => act'.s = e.s)
       \/ e.how = "early" /\ UnprocessedWrite(e.c, e.k)

ObsRead(e) ==
    /\ e.e = "read" /\ nR + 1 = e.r
    /\ \/ e.how = "hit" /\ rrec[e.k] = TRec(e.v, e.s) /\ ClientReadHit(e.c, e.k)
       \/ e.how \in {"fwd", "lost", "early"} /\ ClientReadForward(e.c, e.k)
       \/ e.how = "early" /\ UnprocessedRead(e.c, e.k)

ObsGiveUp(e) == e.e = "giveUp" /\ ClientGiveUp(e.c)

\* The reply ends the client's operation (stale = FALSE) or ends nothing.
Awaited(m, type, stale) == (pend[m.c].t = type /\ pend[m.c].id = m.id) = ~stale

ObsPutReply(e) ==
    /\ e.e = "putReply"
    /\ \E m \in net : /\ m.t = "putR" /\ m.c = e.c /\ m.id = e.w /\ m.s = e.s
                      /\ Awaited(m, "w", e.stale)
                      /\ SwitchPutReply(m, e.dup)

\* The client cannot tell a GET_REPLY from a GET_FOR_CACHE_REPLY (the switch
\* turns the latter into the former): the message in flight says which.
ObsGetReply(e) ==
    /\ e.e = "getReply"
    /\ \E m \in net : /\ m.t \in {"getR", "getRC"} /\ m.c = e.c /\ m.id = e.r
                      /\ m.rec = TRec(e.v, e.s)
                      /\ Awaited(m, "r", e.stale)
                      /\ CASE m.t = "getRC" /\ NotFound(m.rec) -> GetRCNotFound(m, e.dup)
                           [] m.t = "getRC"                    -> SwitchGetReply(m, e.dup)
                           [] e.dup                            -> GetRKeep(m)
                           [] OTHER                            -> ClientGetReply(m)

ObsServerPut(e) ==
    /\ e.e = "serverPut"
    /\ \E m \in net : /\ m.t = "put" /\ m.c = e.c /\ m.id = e.w /\ m.k = e.k /\ m.s = e.s
                      /\ ServerPut(m, e.dup)
                      /\ store'[m.k] = TRec(e.sv, e.ss)

ObsServerGet(e) ==
    /\ e.e = "serverGet"
    /\ \E m \in net : /\ m.t = "get" /\ m.c = e.c /\ m.id = e.r /\ m.k = e.k /\ m.cons = e.cons
                      /\ store[m.k] = TRec(e.v, e.s)
                      /\ store[m.k] = TRec(e.sv, e.ss)
                      /\ ServerGet(m, e.dup)

\* Preloading (the controller's admissions when it programs a fresh switch,
\* in the same step as forwarding) knows the fill floor without a probe: the
\* switch incarnation's sequence base, below every seq the switch will number
\* and above every earlier one (floor >= 0; -1: an admission that probes).
AdmitKnownFloor(k, floor) ==
    /\ Idle /\ ~cached[k] /\ NCached < CacheSize /\ nAdmit < MaxAdmit
    /\ nAdmit' = nAdmit + 1
    /\ cached' = [cached EXCEPT ![k] = TRUE]
    /\ valid' = [valid EXCEPT ![k] = FALSE]
    /\ rrec' = [rrec EXCEPT ![k].s = 0]
    /\ seen' = [seen EXCEPT ![k] = 0]
    /\ fillFloor' = [fillFloor EXCEPT ![k] = floor]
    /\ act' = [a |-> "Admit", k |-> k]
    /\ UNCHANGED <<ctr, probing, store, pend, net, nW, nR, nLoss, nDup, nEvict, nCrash, ghostVars>>

ObsAdmit(e) ==
    /\ e.e = "admit"
    /\ IF e.floor < 0 \/ ~FillBySeen THEN Admit(e.k) ELSE AdmitKnownFloor(e.k, e.floor)

ObsEvict(e) == e.e = "evict" /\ Evict(e.k)

ObsRestart(e) == e.e = "restart" /\ SwitchRestart

\* FillBySeen: the admission's probe (SEQ_PROBE) answered by the key's server
\* with the seq it holds; a probe the converter saw answered twice (the
\* controller resent it after its reply was lost) is delivered and kept the
\* first time.
ObsServerProbe(e) ==
    /\ e.e = "serverProbe"
    /\ \E m \in net : m.t = "probe" /\ m.k = e.k /\ ServerProbe(m, e.dup) /\ act'.s = e.s

\* The probe's reply sets the record's fill floor.
ObsAdmitFloor(e) ==
    /\ e.e = "admitFloor"
    /\ \E m \in net : m.t = "probeR" /\ m.k = e.k /\ m.s = e.s /\ AdmitFloor(m, FALSE)

Observed(e) ==
    \/ ObsWrite(e) \/ ObsRead(e) \/ ObsGiveUp(e) \/ ObsPutReply(e) \/ ObsGetReply(e)
    \/ ObsServerPut(e) \/ ObsServerGet(e) \/ ObsAdmit(e) \/ ObsEvict(e) \/ ObsRestart(e)
    \/ ObsServerProbe(e) \/ ObsAdmitFloor(e)

-----------------------------------------------------------------------------
(* The unobserved step: a loss is visible only through a client giving up, *)
(* and only the loss of a message of the operation it gives up on helps    *)
(* (ClientGiveUp needs none of them in flight).  Restricting unobserved    *)
(* steps can only make TLC reject more, never accept a run it would        *)
(* otherwise reject.                                                       *)
LossBeforeGiveUp ==
    /\ Ev.e = "giveUp"
    /\ \E m \in net : /\ m.t \in {"put", "putR", "get", "getR", "getRC"}
                      /\ m.c = Ev.c /\ m.id = pend[Ev.c].id
                      /\ (m.t \in {"put", "putR"}) = (pend[Ev.c].t = "w")
                      /\ Lose(m)

TraceNext ==
    \/ l <= Len(Trace) /\ Observed(Ev) /\ l' = l + 1
    \/ l <= Len(Trace) /\ LossBeforeGiveUp /\ UNCHANGED l

TraceSpec == TraceInit /\ [][TraceNext]_traceVars

\* Violated exactly when the whole trace has been matched: "accepted".  Not
\* checked by the generated models: a violation makes TLC print the whole
\* behaviour, every state of the run.  CursorReport signals the end instead.
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
