----------------------------- MODULE PegasusTrace -----------------------------
(***************************************************************************)
(* Trace validation of single-rack Pegasus runs (implementation -> spec).  *)
(*                                                                         *)
(* Trace is one simulated rack run, converted by impl-java/pegasus         *)
(* (dev.innet.pegasus.trace.PegasusTraceConverter) from the rack's record  *)
(* of every Pegasus frame p4/pegasus.p4 processed and sent, and the        *)
(* events of the Java servers and controller (PegasusTraceEvents;         *)
(* docs/conformance.md, "Pegasus: trace validation").  The cursor l points *)
(* at the next event.  Each event may only happen as the Pegasus.tla       *)
(* action it names, with the parameters it recorded, and advances the      *)
(* cursor; there are no unobserved steps.  The run is admitted iff some    *)
(* behaviour consumes the whole trace: CursorReport then prints a cursor   *)
(* past the last event and stops TLC (as LakeTrace.tla does).              *)
(*                                                                         *)
(* Every spec message an event consumes, creates or loses is given whole   *)
(* (field m): the converter builds it from the frame as Pegasus.tla's      *)
(* WReq/RReq/VWReq/WRep/RRep would.  The choices the spec leaves open are  *)
(* fixed by the event: dup (the converter keeps a message in net when a    *)
(* later event consumes the same message again), lost (a reply forwarded   *)
(* to a client that later sends the request again; a replica's reply,      *)
(* which goes back to the detector), the write's "others" and the read's   *)
(* server (the switch's choice, checked against the spec's guards).        *)
(*                                                                         *)
(* This module does not change Pegasus.tla: Detector is replaced in the    *)
(* model (Detector <- TraceDetectorOf) by p4/pegasus.p4's detector hash of *)
(* each write's request (crc32 of client address and request id, mod n),   *)
(* computed by the converter; the spec's rule "deterministic by request    *)
(* id, so retries meet the same server" is what the trace is checked       *)
(* against.                                                                *)
(***************************************************************************)
\* PegasusTraceData is generated per run: Trace, the run as a sequence of
\* event records (field e names the event), and TraceDet, each write's detector.
EXTENDS Pegasus, Sequences, TLC, PegasusTraceData

VARIABLE l       \* cursor: index of the next event of Trace

traceVars == <<vars, l>>
\* act only labels steps: leaving it out of the view keeps states few
TraceView == <<verNext, rkeys, rset, verCompleted, markVer, store, ctab, net, used,
               wr, rd, execs, extVer, swDown, lostKeys, l>>

TraceDetectorOf(w) == TraceDet[w]

Ev == Trace[l]

TraceInit == Init /\ l = 1

-----------------------------------------------------------------------------
(* Observed events.                                                        *)

\* The switch stamped a client's WRITE/DELETE (its first or a later attempt)
\* and sent it to a server: Algorithm 1.
ObsWrite(e) ==
  /\ e.e = "write"
  /\ verNext = e.m.ver
  /\ IF e.retry THEN wr[e.m.w].key = e.m.key /\ RetryWrite(e.m.w)
                ELSE IssueWrite(e.m.w, e.m.key)
  /\ e.m \in net'

\* The switch sent a client's READ to a server.
ObsRead(e) ==
  /\ e.e = "read"
  /\ IF e.retry THEN rd[e.m.r].key = e.m.key /\ RetryRead(e.m.r)
                ELSE IssueRead(e.m.r, e.m.key)
  /\ e.m \in net'

\* A server handled a WREQ: applied or not, answered as a duplicate or not,
\* with the reply it sent.
ObsServerWrite(e) ==
  /\ e.e = "serverWrite"
  /\ e.m \in net
  /\ e.isDup = (EnableAtMostOnce /\ e.m.det /\ e.m.w # 0
                /\ \E x \in ctab[e.m.dst] : x[1] = e.m.w)
  /\ ServerWrite(e.m)
  /\ act'.dup = e.dup
  /\ (store'[e.m.dst][e.m.key] # store[e.m.dst][e.m.key]) = e.applied
  /\ e.reply \in net'

\* A detector dropped a late copy of a client's older request unanswered:
\* for the spec, the network lost it (or one of its copies).
ObsServerStale(e) ==
  /\ e.e = "serverStale"
  /\ e.m \in net
  /\ IF e.dup THEN UNCHANGED vars ELSE Lose(e.m)

\* A server answered a READ with what it stores (val: the write whose value
\* it returned, 0 for none, -1 for a value no write of the run wrote).
ObsServerRead(e) ==
  /\ e.e = "serverRead"
  /\ e.m \in net
  /\ store[e.m.dst][e.m.key] = [val |-> e.val, ver |-> e.ver]
  /\ ServerRead(e.m)
  /\ act'.dup = e.dup

\* Home handled a virtual write: raised its version to e.raised.
ObsServerVirtualWrite(e) ==
  /\ e.e = "serverVW"
  /\ e.m \in net
  /\ Max(store[e.m.dst][e.m.key].ver, e.m.ver) = e.raised
  /\ ServerVirtualWrite(e.m)
  /\ act'.dup = e.dup

\* The controller sent a virtual write (writes paused and drained).
ObsVirtualWrite(e) ==
  /\ e.e = "virtualWrite"
  /\ VirtualWrite(e.m.key)
  /\ e.m \in net'

ObsAddKey(e) == e.e = "addKey" /\ AddKey(e.k)

ObsMarkRemove(e) == e.e = "markRemove" /\ MarkRemove(e.k)

\* A WRITE/DELETE/REPLICATE/VIRTUAL_WRITE reply entered the switch: passed on
\* (Algorithm 2, the removal rule) or dropped (unvouched).
ObsWriteReply(e) ==
  /\ e.e = "writeReply"
  /\ e.m \in net
  /\ IF e.passed
       THEN /\ SwitchWriteReply(e.m)
            /\ act'.dup = e.dup
            /\ act'.lost = e.lost
            /\ (e.m.key \in rkeys /\ e.m.key \notin rkeys') = e.removed
       ELSE /\ SwitchDropUnvouched(e.m)
            /\ act'.dup = e.dup

ObsReadReply(e) ==
  /\ e.e = "readReply"
  /\ e.m \in net
  /\ SwitchReadReply(e.m)
  /\ act'.dup = e.dup
  /\ act'.lost = e.lost

-----------------------------------------------------------------------------
(* Issue 16's removal rewrite, one attempt of the controller at a time.    *)
(* Pegasus.tla reads every server's copy and stamps the rewrite in one     *)
(* step (RemovalRewrite); the controller reads over the network first,     *)
(* while the key's writes are paused and drained.  Its reads are no spec   *)
(* step: each answer is checked against the spec's store (rewriteRead),    *)
(* and its passing the switch must not change the directory, since no     *)
(* spec step does (rewriteReadReply: the answer is flagged, and P-22 of    *)
(* p4/pegasus.p4 passes it without Algorithm 2; an unflagged one would go  *)
(* through Algorithm 2, which must then change nothing).  The stamp is the *)
(* spec's step: the RW message recorded (the value of the copy the        *)
(* controller took as newest, exp = the version it read at home) must be   *)
(* the one the spec builds from its stores then, and Drained(k) must hold. *)

\* A server answered the controller's read: it stores what it returned.
ObsRewriteRead(e) ==
  /\ e.e = "rewriteRead"
  /\ store[e.s][e.key] = [val |-> e.val, ver |-> e.ver]
  /\ UNCHANGED vars

\* The answer passed the switch to the controller, the directory unchanged.
ObsRewriteReadReply(e) ==
  /\ e.e = "rewriteReadReply"
  /\ \/ e.flagged
     \/ /\ Alg2Rset(e.key, e.ver, e.s) = rset
        /\ Alg2VerCompleted(e.key, e.ver, e.s) = verCompleted
  /\ UNCHANGED vars

\* The switch stamped the controller's WRITE/DELETE and sent it home.
ObsRewrite(e) ==
  /\ e.e = "rewrite"
  /\ verNext = e.m.ver
  /\ RemovalRewrite(e.m.key)
  /\ e.m \in net'

\* Home handled the rewrite: applied exactly when the spec's home applies it
\* (it still holds exp, and the version is higher), answered only then.
ObsServerRewrite(e) ==
  /\ e.e = "serverRewrite"
  /\ e.m \in net
  /\ ServerRewrite(e.m)
  /\ act'.dup = e.dup
  /\ (store'[e.m.dst][e.m.key] # store[e.m.dst][e.m.key]) = e.applied
  /\ e.applied => e.reply \in net'

\* Home's reply passed the switch to the controller (the removal rule).
ObsRewriteReply(e) ==
  /\ e.e = "rewriteReply"
  /\ e.m \in net
  /\ e.passed
  /\ SwitchRewriteReply(e.m)
  /\ act'.dup = e.dup
  /\ (e.m.key \in rkeys /\ e.m.key \notin rkeys') = e.removed

\* A message no later event consumes: lost on one of its links.
ObsLose(e) == e.e = "lose" /\ e.m \in net /\ Lose(e.m)

Observed(e) ==
  \/ ObsWrite(e) \/ ObsRead(e) \/ ObsServerWrite(e) \/ ObsServerStale(e)
  \/ ObsServerRead(e) \/ ObsServerVirtualWrite(e) \/ ObsVirtualWrite(e)
  \/ ObsAddKey(e) \/ ObsMarkRemove(e) \/ ObsWriteReply(e) \/ ObsReadReply(e)
  \/ ObsRewriteRead(e) \/ ObsRewriteReadReply(e) \/ ObsRewrite(e) \/ ObsServerRewrite(e)
  \/ ObsRewriteReply(e)
  \/ ObsLose(e)

TraceNext == l <= Len(Trace) /\ Observed(Ev) /\ l' = l + 1

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
