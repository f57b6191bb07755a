--------------------------- MODULE VisibilityTrace ---------------------------
(***************************************************************************)
(* Trace validation of visibility-layer runs (implementation -> spec).     *)
(*                                                                         *)
(* Trace is one simulated rack run, converted by impl-java/visibility      *)
(* (VisibilityTraceConverter) from the rack's record of every frame        *)
(* p4/visibility.p4 processed and sent, and the events of the clients,     *)
(* data nodes, metadata node and switch OS (docs/conformance.md, "Trace    *)
(* validation: Visibility").  The cursor l points at the next event.  Each *)
(* observed event may only happen as the Visibility action it names, on   *)
(* the message it names (which must be in flight), with the outcome it     *)
(* recorded, and advances the cursor.  There are no unobserved steps: the  *)
(* spec's switch, nodes and clients are all seen, and a message the        *)
(* network lost simply stays in `net` (Lose is not needed: nothing in      *)
(* Visibility.tla waits for a message to be gone once SpuriousTimeouts is  *)
(* TRUE).  The run is admitted iff some behaviour consumes the whole trace: *)
(* CursorReport then prints a cursor past the last event and stops TLC (as *)
(* FarReachTrace.tla and LakeTrace.tla do).                                *)
(*                                                                         *)
(* Every step is one of Visibility.tla's actions, unchanged; this module    *)
(* only constrains which one and with what parameters:                     *)
(*  - values: write ids are numbered in invocation order, read ids after   *)
(*    them; a log address is the write whose data node wrote it there;   *)
(*    0 in an event stands for NoW (a key absent);                        *)
(*  - dup: the delivery keeps a copy in flight (Recv's second disjunct),    *)
(*    chosen by the converter (the same message is delivered again later);  *)
(*  - the run starts with SwCrash (the switch drops everything until the    *)
(*    switch OS's first resynchronisation);                                *)
(*  - a resynchronisation is RebuildRecord steps and ResyncDone (below),    *)
(*    not SwResync: the implementation's takes many messages;              *)
(*  - a metadata node's crash is MdnRestart, RebuildRecord steps and        *)
(*    RebuildDone (below), not MdnCrash, for the same reason;             *)
(*  - a data node's or the switch OS's restart is no step: a data node's    *)
(*    log and timestamp sources are durable (dlog, tsGen), and the switch   *)
(*    OS holds nothing the spec has (it leaves a ready switch alone and     *)
(*    restarts a resynchronisation in progress).                           *)
(***************************************************************************)
\* VisibilityTraceData is generated per run: Trace, the run as a sequence of
\* event records (field e names the event).
EXTENDS Visibility, Sequences, VisibilityTraceData

VARIABLE l       \* cursor: index of the next event of Trace
VARIABLE rebuilding    \* the metadata node is rebuilding its index: reads are
                       \*   answered UNAVAILABLE (no MdnRead step)
VARIABLE rebuildFloor  \* rebuildFloor[k]: the newest timestamp of key k logged
                       \*   when the rebuild began; the rebuild must reach it

rebuildVars == <<rebuilding, rebuildFloor>>
traceVars == <<vars, l, rebuildVars>>
\* act and the linearizability history only label and record steps: leaving
\* them out of the view keeps states few (the trace fixes them anyway)
TraceView == <<net, dlog, tsGen, sw, maxTs, swUp, idx, deferred, pendClr,
               wr, rd, clock, faults, l, rebuildVars>>

Ev == Trace[l]

TraceInit == Init /\ l = 1 /\ rebuilding = FALSE /\ rebuildFloor = [k \in Keys |-> 0]

W(x) == IF x = 0 THEN NoW ELSE x

\* Delivering message m as action A(m), keeping a copy exactly when the event says so.
Deliver1(e, m, A(_)) == m \in net /\ A(m) /\ act'.dup = e.dup

-----------------------------------------------------------------------------
(* The resynchronisation as the implementation runs it (beyond             *)
(* Visibility.tla, whose SwResync does it in one step).  III-E 3's          *)
(* procedure takes many messages: the metadata node drains its buffer (an  *)
(* observed MdnBatch) and rebuilds its index from the newest entries the    *)
(* data nodes send, one record at a time (RebuildRecord); then the data     *)
(* nodes report their slots' last timestamps and the switch OS loads them   *)
(* into MaxTs and turns acceleration on (ResyncDone).  Data nodes keep      *)
(* appending meanwhile, so the index and MaxTs are those of the moments the *)
(* data nodes answered, not of the end.  What keeps this safe, and what     *)
(* ResyncDone checks: every record is an entry a data node logged, and the  *)
(* MaxTs loaded for a slot is a timestamp its source handed out and is not  *)
(* below any timestamp the index holds for a key of that slot (so no reply  *)
(* from before the crash can install metadata older than the index's).     *)

\* The metadata node applied a data node's newest logged entry of key k (only
\* while it rebuilds: at its start, after its crash, or for a resynchronisation).
RebuildRecord(w, k, ts) ==
    /\ rebuilding
    /\ dlog[w].key = k /\ dlog[w].ts = ts /\ ts > 0
    /\ idx' = ApplyAll(idx, {[w |-> w, key |-> k, ts |-> ts]})
    /\ act' = Act("RebuildRecord", <<w, k, ts>>, FALSE)
    /\ UNCHANGED <<cleared, net, dlog, tsGen, sw, maxTs, swUp, deferred, pendClr, wr, rd, clock, faults, linVars>>

\* The switch OS loaded MaxTs (reload[s] per slot) and set vis_ready.
ResyncDone(reload) ==
    /\ ~swUp
    /\ \A s \in Slots : /\ reload[s] <= tsGen[s]
                        /\ \A k \in Keys : SlotOf[k] = s => idx[k].ts <= reload[s]
    /\ swUp' = TRUE
    /\ maxTs' = reload
    /\ act' = Act("ResyncDone", reload, FALSE)
    /\ UNCHANGED <<cleared, net, dlog, tsGen, sw, idx, deferred, pendClr, wr, rd, clock, faults, linVars>>

-----------------------------------------------------------------------------
(* The metadata node's crash as the implementation recovers from it (beyond *)
(* Visibility.tla, whose MdnCrash sets the index to every key's newest      *)
(* logged entry in one step).  III-E 2's rebuild takes messages too: the    *)
(* restarted node begins with an empty index, no deferred updates and no    *)
(* clears to re-send (MdnRestart), asks every data node for its newest      *)
(* entry of each key and applies them as they come (RebuildRecord), while  *)
(* it already applies second phases and deferred batches; it answers no     *)
(* read until the rebuild is complete (RebuildDone).  What keeps this as    *)
(* safe as MdnCrash, and what RebuildDone checks: reads wait for the end,   *)
(* and at the end the index holds, for every key, an entry at least as new  *)
(* as the newest one logged when the rebuild began (a data node answers     *)
(* after that, so it replays those entries or newer ones).  A resync's      *)
(* rebuild starts from the index the node holds and is checked the same     *)
(* way.                                                                     *)

\* The crashed metadata node starts again: everything it held is gone.
MdnRestart ==
    /\ faults.mdnCrash < MaxMdnCrash
    /\ faults' = [faults EXCEPT !.mdnCrash = @ + 1]
    /\ idx' = [k \in Keys |-> [w |-> NoW, ts |-> 0]]
    /\ deferred' = {}
    /\ pendClr' = {}
    /\ act' = Act("MdnRestart", <<>>, FALSE)
    /\ UNCHANGED <<cleared, net, dlog, tsGen, sw, maxTs, swUp, wr, rd, clock, linVars>>

\* A resynchronisation reached the metadata node: it has drained its buffer
\* (an observed MdnBatch before) and drops its clear re-sends (the switch lost
\* its entries), as SwResync does.
MdnResyncStart ==
    /\ deferred = {}
    /\ pendClr' = {}
    /\ act' = Act("MdnResyncStart", <<>>, FALSE)
    /\ UNCHANGED <<cleared, net, dlog, tsGen, sw, maxTs, swUp, idx, deferred, wr, rd, clock, faults, linVars>>

\* How a rebuild begins: the node's first start (Init's empty index), its
\* restart after a crash, or a resynchronisation; the floor is every key's
\* newest logged timestamp at this moment.
RebuildStart(cause) ==
    /\ CASE cause = "start"   -> UNCHANGED vars
         [] cause = "restart" -> MdnRestart
         [] cause = "resync"  -> MdnResyncStart
    /\ rebuilding' = TRUE
    /\ rebuildFloor' = [k \in Keys |-> Newest(k).ts]

RebuildDone ==
    /\ rebuilding
    /\ \A k \in Keys : idx[k].ts >= rebuildFloor[k]
    /\ rebuilding' = FALSE
    /\ UNCHANGED <<vars, rebuildFloor>>

-----------------------------------------------------------------------------
(* Observed events.                                                         *)

ObsInvokeWrite(e) == e.e = "invokeWrite" /\ InvokeWrite(e.w, e.k)
ObsInvokeRead(e)  == e.e = "invokeRead" /\ InvokeRead(e.r, e.k)

\* the client re-sent the request of the phase it is in
ObsWriteTimeout(e) == e.e = "writeTimeout" /\ wr[e.w].st = e.ph /\ ClientWriteTimeout(e.w)
ObsReadTimeout(e)  == e.e = "readTimeout" /\ ClientReadTimeout(e.r)

\* the data node stamped the write (a retry: with the timestamp it already gave)
ObsDnWrite(e) ==
    /\ e.e = "dnWrite"
    /\ Deliver1(e, Msg("WReq", e.w, NoW, e.k, 0), DnWrite)
    /\ dlog'[e.w].ts = e.ts

ObsSwWriteReply(e) ==
    /\ e.e = "swWriteReply"
    /\ Deliver1(e, Msg("WRep", e.w, NoW, e.k, e.ts), SwWriteReply)
    /\ act'.name = IF e.install THEN "SwInstall" ELSE "SwFallback"

ObsCommit(e)     == e.e = "commit" /\ Deliver1(e, Msg("WAck", e.w, NoW, e.k, e.ts), ClientCommit)
ObsFallback(e)   == e.e = "fallback" /\ Deliver1(e, Msg("WFb", e.w, NoW, e.k, e.ts), ClientFallback)
ObsMdnUpdate(e)  == e.e = "mdnUpdate" /\ Deliver1(e, Msg("MReq", e.w, NoW, e.k, e.ts), MdnUpdate)
ObsSwMetaReply(e) == e.e = "swMetaReply" /\ Deliver1(e, Msg("MRep", e.w, NoW, e.k, e.ts), SwMetaReply)
ObsMdnDefer(e)   == e.e = "mdnDefer" /\ Deliver1(e, Msg("MUpd", e.w, NoW, e.k, e.ts), MdnDefer)
ObsBatch(e)      == e.e = "batch" /\ MdnBatch
ObsSwClear(e)    == e.e = "swClear" /\ Deliver1(e, Msg("Clr", NoW, NoW, e.k, e.ts), SwClear)
ObsClrAck(e)     == e.e = "clrAck" /\ Deliver1(e, Msg("ClrAck", NoW, NoW, e.k, e.ts), MdnClrAck)
ObsClrTimeout(e) ==
    /\ e.e = "clrTimeout"
    /\ [key |-> e.k, ts |-> e.ts] \in pendClr
    /\ MdnClearTimeout([key |-> e.k, ts |-> e.ts])

\* a hit names the write whose log address the switch returned
ObsSwRead(e) ==
    /\ e.e = "swRead"
    /\ Deliver1(e, Msg("RReq", NoW, e.r, e.k, 0), SwRead)
    /\ IF e.hit THEN act'.name = "SwReadHit" /\ act'.args[2] = e.w
                ELSE act'.name = "SwReadMiss"

\* never while rebuilding: the implementation answers UNAVAILABLE then
ObsMdnRead(e) ==
    /\ e.e = "mdnRead"
    /\ ~rebuilding
    /\ Deliver1(e, Msg("MRead", NoW, e.r, e.k, 0), MdnRead)
    /\ act'.args[2] = W(e.v)

\* valid: the log entry held the queried key (else the client is told to retry)
ObsDnRead(e) ==
    /\ e.e = "dnRead"
    /\ Deliver1(e, Msg("DRead", e.w, e.r, e.k, 0), DnRead)
    /\ act'.args[3] = e.valid

ObsReadDone(e)  == e.e = "readDone" /\ Deliver1(e, Msg("RRep", W(e.v), e.r, e.k, 0), ClientReadDone)
ObsReadRetry(e) == e.e = "readRetry" /\ Deliver1(e, Msg("RNack", NoW, e.r, e.k, 0), ClientReadRetry)

\* the switch OS found slot s's entry stale and had the write it holds re-sent
ObsStale(e) == e.e = "stale" /\ sw[e.s].valid /\ sw[e.s].w = e.w /\ SwStaleTimeout(e.s)

ObsCrash(e)  == e.e = "crash" /\ SwCrash
ObsRebuild(e) == e.e = "rebuild" /\ RebuildRecord(e.w, e.k, e.ts)
ObsResync(e) == e.e = "resync" /\ ResyncDone([s \in Slots |-> e.reload[s + 1]])

ObsRebuildStart(e) == e.e = "rebuildStart" /\ RebuildStart(e.cause)
ObsRebuilt(e) == e.e = "rebuilt" /\ RebuildDone

\* the events of the Visibility.tla actions (and the resync's): no rebuild
\* variable changes
Observed(e) ==
    \/ ObsInvokeWrite(e) \/ ObsInvokeRead(e) \/ ObsWriteTimeout(e) \/ ObsReadTimeout(e)
    \/ ObsDnWrite(e) \/ ObsSwWriteReply(e) \/ ObsCommit(e) \/ ObsFallback(e)
    \/ ObsMdnUpdate(e) \/ ObsSwMetaReply(e) \/ ObsMdnDefer(e) \/ ObsBatch(e)
    \/ ObsSwClear(e) \/ ObsClrAck(e) \/ ObsClrTimeout(e)
    \/ ObsSwRead(e) \/ ObsMdnRead(e) \/ ObsDnRead(e) \/ ObsReadDone(e) \/ ObsReadRetry(e)
    \/ ObsStale(e) \/ ObsCrash(e) \/ ObsRebuild(e) \/ ObsResync(e)

TraceNext ==
    /\ l <= Len(Trace)
    /\ \/ Observed(Ev) /\ UNCHANGED rebuildVars
       \/ ObsRebuildStart(Ev) \/ ObsRebuilt(Ev)
    /\ l' = l + 1

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
