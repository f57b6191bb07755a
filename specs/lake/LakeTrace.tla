------------------------------ MODULE LakeTrace ------------------------------
(***************************************************************************)
(* Trace validation of LaKe runs (implementation -> spec).                *)
(*                                                                         *)
(* Trace is one simulated rack run, converted by impl-java/tracecheck      *)
(* (LakeTraceConverter) from the rack's record of every memcached datagram *)
(* p4/lake.p4 processed and sent, the simulator's memcached hosts' events  *)
(* and the clients' timeouts (docs/conformance.md, "LaKe").  The cursor l  *)
(* points at the next event.  An observed event may only happen as the    *)
(* Lake action it names, with the parameters it recorded, and advances    *)
(* the cursor; between events TLC may take the one step nobody observes:   *)
(* a client abandoning its operation right before the switch sees its next *)
(* request (its timeout was seen before the older request reached the     *)
(* switch).  The run is admitted iff some behaviour consumes the whole     *)
(* trace: CursorReport then prints a cursor past the last event and stops  *)
(* TLC (as FarReachTrace.tla and NetCacheTrace.tla do).                    *)
(*                                                                         *)
(* Abstractions (each also in docs/conformance.md):                        *)
(*  - values are write ids, numbered in the order the switch forwarded the *)
(*    writes; a hit is matched by the set of write ids whose bytes it      *)
(*    returned; 0 = no item;                                               *)
(*  - tags are numbered 1, 2, ... in the order the switch issued them      *)
(*    (only their order matters to the data plane);                        *)
(*  - slots: each layer's slots that some key of the run hashes to, in     *)
(*    order (H1, H2 from lake.p4's CRC-32 hashes): keys share a slot in     *)
(*    the spec exactly when they share it in the data plane;               *)
(*  - writes LaKe cannot cache (a SET of a value other than 32 bytes, a    *)
(*    DELETE: lake.p4's LUT_KEY_CHANGE) are ClientKeyChange below, and     *)
(*    replies that carry nothing to install are LakeReplyNoValue;          *)
(*  - a client's timeout is ClientTimeout: Lake.tla's ClientGiveUp waits   *)
(*    until nothing of the operation is in flight, for its history's sake; *)
(*    the real client's timer cannot know that, and a late message of the  *)
(*    abandoned operation is still handled by the spec's actions;           *)
(*  - a reply the switch drops although its tag was issued in the current  *)
(*    incarnation (its lookup-table entry was overwritten, 1024 tags later) *)
(*    is a Lose, as Lake.tla's header says.                                 *)
(***************************************************************************)
\* LakeTraceData is generated per run by impl-java/tracecheck: Trace, the run
\* as a sequence of event records (field e names the event).
EXTENDS Lake, Sequences, LakeTraceData

VARIABLE l       \* cursor: index of the next event of Trace

traceVars == <<vars, l>>
\* act only labels steps: leaving it out of the view keeps states few
TraceView == <<viewVars, l>>

Ev == Trace[l]

TraceInit == Init /\ l = 1

-----------------------------------------------------------------------------
(* Steps the implementation takes beyond Lake.tla's actions.                *)

\* lake.p4 LUT_KEY_CHANGE: a write LaKe cannot cache goes to the host with a
\* tag; each layer's slot of k is invalidated if it holds k and fenced at the
\* tag, so that no reply to an earlier request refills it.
ClientKeyChange(c, k) ==
    /\ pend[c] = NoOp /\ nW < MaxWrites
    /\ LET w == nW + 1
           t == serial + 1
           slots == {SlotOf(1, k), SlotOf(2, k)}
       IN /\ nW' = w
          /\ wkey' = [wkey EXCEPT ![w] = k]
          /\ Forward([t |-> "set", c |-> c, k |-> k, id |-> w, tag |-> t])
          /\ pend' = [pend EXCEPT ![c] = [t |-> "w", k |-> k, id |-> w]]
          /\ Invoke(c, k)
          /\ cache' = [s \in Slot |-> IF s \in slots /\ cache[s].k = k THEN Empty ELSE cache[s]]
          /\ fence' = [s \in Slot |-> IF s \in slots THEN t ELSE fence[s]]
          /\ act' = [a |-> "ClientKeyChange", c |-> c, k |-> k, w |-> w]
    /\ UNCHANGED <<hostVars, nR, nLoss, nEvict, nReset, nRestart, wver, doneMax, lastRead, linMax, linBad, zver>>

\* LakeReply of a reply with nothing to install (a NOT_FOUND GET, a value
\* LaKe does not cache, the reply to a ClientKeyChange): each layer's slot
\* of the key is invalidated if it holds the key; fences rise as in LakeReply.
LakeReplyNoValue(m) ==
    /\ m \in net /\ m.t \in {"getR", "setR"} /\ Known(m)
    /\ LET k == m.k
           v == IF m.t = "getR" THEN m.v ELSE m.id
           touched == {SlotOf(1, k), SlotOf(2, k)}
       IN /\ net' = net \ {m}
          /\ lut' = lut \ {m.tag}
          /\ cache' = [s \in Slot |-> IF s \in touched /\ cache[s].k = k THEN Empty ELSE cache[s]]
          /\ fence' = [s \in Slot |-> IF s \in touched THEN Max(fence[s], serial) ELSE fence[s]]
          /\ IF pend[m.c].id = m.id /\ pend[m.c].t = (IF m.t = "getR" THEN "r" ELSE "w")
             THEN IF m.t = "getR" THEN CompleteRead(m.c, k, v)
                                  ELSE CompleteWrite(m.c, k, wver[m.id])
             ELSE UNCHANGED <<pend, doneMax, lastRead, linMax, linBad, floorOf, linFloor>>
          /\ act' = [a |-> "LakeReply", via |-> "NoValueReply", c |-> m.c, k |-> k, id |-> m.id,
                     tag |-> m.tag, v |-> v]
    /\ UNCHANGED <<serial, hostVars, cntVars, wver, wkey, zver>>

\* The client's timer fired: its operation is over (see the header).
ClientTimeout(c) ==
    /\ pend[c] /= NoOp
    /\ Retire(c)
    /\ act' = [a |-> "ClientTimeout", c |-> c]
    /\ UNCHANGED <<lakeVars, hostVars, net, cntVars, wver, wkey, doneMax, lastRead, linMax, linBad, zver>>

-----------------------------------------------------------------------------
(* Observed events.  tag: the request's tag in issue order; w: the write id *)
(* (issue order of writes); vs: the write ids whose value a hit returned;    *)
(* fill: the reply carried a value lake.p4 installs; known: the switch      *)
(* relayed the reply (it held its tag).                                     *)

ObsSet(e) ==
    /\ e.e = "set" /\ nW + 1 = e.w /\ serial + 1 = e.tag
    /\ IF e.cacheable THEN ClientSet(e.c, e.k) ELSE ClientKeyChange(e.c, e.k)

ObsGetHit(e) == e.e = "getHit" /\ ClientGetHit(e.c, e.k) /\ act'.v \in e.vs

ObsGetMiss(e) == e.e = "getMiss" /\ serial + 1 = e.tag /\ ClientGetMiss(e.c, e.k)

ObsHostSet(e) ==
    /\ e.e = "hostSet"
    /\ \E m \in net : m.t = "set" /\ m.tag = e.tag /\ m.k = e.k /\ m.id = e.w /\ HostSet(m)

ObsHostGet(e) ==
    /\ e.e = "hostGet"
    /\ \E m \in net : m.t = "get" /\ m.tag = e.tag /\ m.k = e.k /\ store[m.k] = e.v /\ HostGet(m)

ObsReply(e) ==
    /\ e.e = "reply"
    /\ \E m \in net :
         /\ m.t \in {"getR", "setR"} /\ m.tag = e.tag
         /\ IF e.known
            THEN /\ Known(m)
                 /\ IF e.fill THEN (m.t = "getR" => m.v /= 0) /\ LakeReply(m)
                              ELSE LakeReplyNoValue(m)
            ELSE \/ ~Known(m) /\ LakeReply(m)
                 \/ Known(m) /\ Lose(m)

ObsTimeout(e) ==
    /\ e.e = "timeout"
    /\ IF pend[e.c] /= NoOp THEN ClientTimeout(e.c)
       ELSE UNCHANGED vars   \* the request never reached the switch: nothing to end

ObsReset(e) == e.e = "reset" /\ Reset

Observed(e) ==
    \/ ObsSet(e) \/ ObsGetHit(e) \/ ObsGetMiss(e) \/ ObsHostSet(e) \/ ObsHostGet(e)
    \/ ObsReply(e) \/ ObsTimeout(e) \/ ObsReset(e)

-----------------------------------------------------------------------------
(* The unobserved step: the client whose request the switch sees next still *)
(* has an operation open in the spec (an older attempt reached the switch    *)
(* after the client's timeout).  Restricting unobserved steps can only make  *)
(* TLC reject more, never accept a run it would otherwise reject.           *)
AbandonBeforeRequest ==
    /\ Ev.e \in {"set", "getHit", "getMiss"}
    /\ ClientTimeout(Ev.c)

TraceNext ==
    \/ l <= Len(Trace) /\ Observed(Ev) /\ l' = l + 1
    \/ l <= Len(Trace) /\ AbandonBeforeRequest /\ UNCHANGED l

TraceSpec == TraceInit /\ [][TraceNext]_traceVars

\* Violated exactly when the whole trace has been matched (not checked by the
\* generated models, see NetCacheTrace.tla).
TraceNotFinished == l <= Len(Trace)

\* State constraint that never prunes: prints the cursor whenever it goes
\* further than before, so a rejection can name the event it stopped at; a
\* cursor past the last event means "accepted" and stops TLC.
ASSUME TLCSet(2, 0)
CursorReport ==
    IF l > TLCGet(2)
    THEN /\ TLCSet(2, l)
         /\ PrintT(<<"trace-cursor", l>>)
         /\ (l > Len(Trace) => TLCSet("exit", TRUE))
    ELSE TRUE
=============================================================================
