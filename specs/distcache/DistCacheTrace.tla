---------------------------- MODULE DistCacheTrace ----------------------------
(***************************************************************************)
(* Trace validation of DistCache runs (implementation -> spec).           *)
(*                                                                         *)
(* Trace is one simulated run of the leaf-spine network, converted by     *)
(* impl-java/distcache (DistCacheTraceConverter) from the rack's record of *)
(* every frame each switch processed and sent, the servers', the          *)
(* controller's and the clients' trace events, and the simulator's switch *)
(* crashes (docs/conformance.md, "DistCache: trace validation").  The      *)
(* cursor tl points at the next event.  An observed event may only happen *)
(* as the DistCache action it names, with the parameters it recorded, and *)
(* advances the cursor.  The run is admitted iff some behaviour consumes   *)
(* the whole trace: CursorReport then prints a cursor past the last event *)
(* and stops TLC (as FarReachTrace.tla and LakeTrace.tla do).             *)
(*                                                                         *)
(* Abstractions (each also in docs/conformance.md):                        *)
(*  - values are write ids in the order the client ToR forwarded the      *)
(*    writes; a record carries the write id the server gave its version   *)
(*    (-2 if its bytes are no write's, which no spec state holds);        *)
(*  - insertion tokens are numbered in insertion order;                   *)
(*  - a message lost in the network is never consumed: it stays in net    *)
(*    (no Lose step, so MaxLoss = 0); a message delivered again later     *)
(*    (duplicated, or resent while still in flight: the network is a set) *)
(*    is delivered with "deliver and keep" (dup);                          *)
(*  - an agent's control-plane write that races the switch's packets (a  *)
(*    re-fill's token, an eviction's lookup-entry deletion) is a window   *)
(*    between two events, and its step may happen anywhere inside it      *)
(*    (agentOpen, AgentInWindow);                                         *)
(*  - the steps below marked "beyond DistCache.tla" are what the          *)
(*    implementation does and the spec does not state.                    *)
(***************************************************************************)
\* DistCacheTraceData is generated per run: Trace, the run as a sequence of
\* event records (field e names the event, src its NDJSON line).
EXTENDS DistCache, Sequences, DistCacheTraceData

VARIABLE tl      \* cursor: index of the next event of Trace
\* The agents' control-plane steps whose window is open: the write was sent
\* (event refetchBegin / evictBegin) and has not been acknowledged (event
\* refetch / evict) yet.  On a live rack it takes effect at the switch at
\* some moment in between, so frames the switch handles meanwhile may meet
\* the copy before or after it: the spec's step (CacheRefetch / CacheEvict)
\* may happen anywhere in the window.  Each is [a, k, l, tok]: a the step
\* ("refetch" or "evict"), tok a re-fill's insertion number (0: eviction).
VARIABLE agentOpen

traceVars == <<vars, tl, agentOpen>>
\* act only labels steps; verOf is a function of the events consumed so far
\* (every ServerWrite's write id and version is observed), so two states at
\* the same cursor never differ in it: leaving both out keeps fingerprints
\* small (verOf has |Key| x MaxWrites entries).
TraceView == <<cacheVars, serverVars, pend, net, cntVars, linMax, opFloor, linBad, tl, agentOpen>>

Ev == Trace[tl]

TraceInit == Init /\ tl = 1 /\ agentOpen = {}

-----------------------------------------------------------------------------
(* Beyond DistCache.tla.                                                    *)

\* The client's timer fired: its operation is over.  DistCache.tla's
\* ClientGiveUp waits until nothing of the operation is in flight, for its
\* history's sake; the real client's timer cannot know that, and a late
\* message of the abandoned operation is still handled by the spec's actions.
ClientTimeout(c) ==
    /\ pend[c] /= NoOp
    /\ pend' = [pend EXCEPT ![c] = NoOp]
    /\ Retire(c)
    /\ act' = [a |-> "ClientTimeout", c |-> c]
    /\ UNCHANGED <<cacheVars, serverVars, net, cntVars, linMax, verOf, linBad>>

\* The server's resend timer resends every layer not yet acknowledged, also
\* while that layer's invalidation or acknowledgement is still in flight
\* (only slow); ServerResendInv without its "neither in flight" guard.
\* Resending a message already in flight leaves the set net as it is.
ResendInv(k, ly) ==
    /\ ~Idle(k) /\ ly \notin acked[k]
    /\ net' = net \cup {[t |-> "inv", k |-> k, l |-> ly, rec |-> [v |-> cur[k].w, n |-> cur[k].n]]}
    /\ act' = [a |-> "ServerResendInv", k |-> k, l |-> ly, n |-> cur[k].n]
    /\ UNCHANGED <<cacheVars, serverVars, pend, cntVars, linVars>>

\* distcache.p4 stores values of at most 128 bytes (DC-8: the parser's 16
\* value words): an update carrying a longer value is consumed and refused,
\* whatever its version and token.  The copy stays invalid (or waiting for
\* its fill); reads miss it.
CacheUpdateTooBig(m, d) ==
    /\ m \in net /\ m.t = "upd" /\ DupOK(d)
    /\ net' = Rest(m, d)
    /\ CountDup(d)
    /\ act' = [a |-> "CacheUpdateRefused", k |-> m.k, l |-> m.l, rec |-> m.rec, tok |-> m.tok,
               taken |-> FALSE, dup |-> d]
    /\ UNCHANGED <<cacheVars, serverVars, pend, nW, nR, nLoss, nIns, nEvict, nCrash, linVars>>

\* A copy of a client's read the network duplicated before a cache switch:
\* the switch decides on it again.  A hit answers a client that no longer
\* waits (its record must be the copy's); a miss sends the read's GET to the
\* server again (the same message as the original's if that one missed too).
DuplicateRead(c, k, ly, r, hit, rec) ==
    /\ IF hit
       THEN /\ Hit(ly, k) /\ crec[ly][k] = rec
            /\ UNCHANGED net
       ELSE /\ ~Hit(ly, k)
            /\ net' = net \cup {[t |-> "get", c |-> c, k |-> k, id |-> r]}
    /\ act' = [a |-> "DuplicateRead", c |-> c, k |-> k, l |-> ly, r |-> r, hit |-> hit]
    /\ UNCHANGED <<cacheVars, serverVars, pend, cntVars, linVars>>

-----------------------------------------------------------------------------
(* Observed events.  w: write id; r: read id; n: version; rec: a record    *)
(* [v |-> write id, n |-> version]; tok: insertion number (0: phase 2);    *)
(* dup: the message is delivered again later.                              *)

ObsWrite(e) == e.e = "write" /\ nW + 1 = e.w /\ ClientWrite(e.c, e.k)

ObsServerWrite(e) ==
    /\ e.e = "serverWrite"
    /\ \E m \in net :
         /\ m.t = "put" /\ m.c = e.c /\ m.k = e.k /\ m.id = e.w
         /\ ServerWrite(m)
         /\ act'.n = e.n
         \* phaseOne = FALSE: the server applied the write at once (no invalidations first)
         /\ (cur'[e.k] /= NoCur) = e.phaseOne

ObsReadHit(e) ==
    /\ e.e = "readHit" /\ nR + 1 = e.r
    /\ ClientReadHit(e.c, e.k, e.l)
    /\ act'.rec = e.rec

\* l = "": the client ToR routed the read to no copy (it had no candidate node)
ObsReadMiss(e) ==
    /\ e.e = "readMiss" /\ nR + 1 = e.r
    /\ IF e.l = "" THEN \E ly \in Layer : ClientReadMiss(e.c, e.k, ly)
                   ELSE ClientReadMiss(e.c, e.k, e.l)

ObsDupRead(e) ==
    /\ e.e = "dupRead"
    /\ DuplicateRead(e.c, e.k, e.l, e.r, e.hit, IF e.hit THEN e.rec ELSE Init0)

ObsServerGet(e) ==
    /\ e.e = "serverGet"
    /\ \E m \in net :
         /\ m.t = "get" /\ m.c = e.c /\ m.k = e.k /\ m.id = e.r
         /\ ServerGet(m, e.dup)
         /\ act'.rec = e.rec

ObsInv(e) ==
    /\ e.e = "inv"
    /\ \E m \in net : m.t = "inv" /\ m.k = e.k /\ m.l = e.l /\ m.rec.n = e.n /\ CacheInv(m, e.dup)

\* counted: an acknowledgement of the write in phase 1 (not its last);
\* applied: the last one, the write applied; stale: of no write in phase 1.
AckOutcome(e) ==
    LET current == cur[e.k] /= NoCur /\ cur[e.k].n = e.n
    IN CASE e.outcome = "stale"   -> ~current
         [] e.outcome = "counted" -> current /\ cur'[e.k] /= NoCur
         [] e.outcome = "applied" -> current /\ cur'[e.k] = NoCur
         [] OTHER -> FALSE

ObsInvAck(e) ==
    /\ e.e = "invAck"
    /\ \E m \in net :
         /\ m.t = "invA" /\ m.k = e.k /\ m.l = e.l /\ m.n = e.n
         /\ ServerInvAck(m, e.dup)
         /\ AckOutcome(e)

ObsResend(e) ==
    /\ e.e = "resend"
    /\ cur[e.k] /= NoCur /\ cur[e.k].n = e.n
    /\ ResendInv(e.k, e.l)

ObsFetch(e) ==
    /\ e.e = "fetch"
    /\ \E m \in net :
         /\ m.t = "fetch" /\ m.k = e.k /\ m.l = e.l /\ m.tok = e.tok
         /\ ServerFetch(m, e.dup)
         /\ act'.rec = e.rec

ObsUpd(e) ==
    /\ e.e = "upd"
    /\ \E m \in net :
         /\ m.t = "upd" /\ m.k = e.k /\ m.l = e.l /\ m.rec = e.rec /\ m.tok = e.tok
         /\ IF e.big THEN CacheUpdateTooBig(m, e.dup) ELSE CacheUpdate(m, e.dup)

ObsInsert(e) == e.e = "insert" /\ nIns + 1 = e.tok /\ CacheInsert(e.l, e.k)

\* The agents' re-fills (the trace model sets RefetchInvalid; RefetchDue
\* keeps its default: the agent acts on a read of the copy's state) and
\* evictions.  Each opens a window at its begin event and closes it at its
\* end event: the spec's step is taken by AgentInWindow at any point of the
\* window, or at its close at the latest.  Insertion numbers are taken in
\* order (nIns + 1).
AgentStep(r) ==
    IF r.a = "refetch" THEN nIns + 1 = r.tok /\ CacheRefetch(r.l, r.k)
                       ELSE CacheEvict(r.l, r.k)

AgentRec(e) ==
    [a |-> IF e.e \in {"refetchBegin", "refetch"} THEN "refetch" ELSE "evict",
     k |-> e.k, l |-> e.l,
     tok |-> IF e.e \in {"refetchBegin", "refetch"} THEN e.tok ELSE 0]

ObsAgentBegin(e) ==
    /\ e.e \in {"refetchBegin", "evictBegin"}
    /\ agentOpen' = agentOpen \cup {AgentRec(e)}
    /\ UNCHANGED vars

ObsAgentEnd(e) ==
    /\ e.e \in {"refetch", "evict"}
    /\ IF AgentRec(e) \in agentOpen
       THEN AgentStep(AgentRec(e)) /\ agentOpen' = agentOpen \ {AgentRec(e)}
       ELSE UNCHANGED <<vars, agentOpen>>

\* A crashed cache node that is no key's home loses nothing of the run.
ObsCrash(e) ==
    /\ e.e = "crash"
    /\ IF \E k \in Key : Place[e.l][k] = e.s THEN CacheCrash(e.l, e.s) ELSE UNCHANGED vars

\* A timeout of an operation the spec never saw (its request lost before any
\* switch step) ends nothing.
ObsTimeout(e) ==
    /\ e.e = "timeout"
    /\ IF pend[e.c] /= NoOp THEN ClientTimeout(e.c) ELSE UNCHANGED vars

Observed(e) ==
    \/ ObsWrite(e) \/ ObsServerWrite(e) \/ ObsReadHit(e) \/ ObsReadMiss(e) \/ ObsDupRead(e)
    \/ ObsServerGet(e) \/ ObsInv(e) \/ ObsInvAck(e) \/ ObsResend(e) \/ ObsFetch(e) \/ ObsUpd(e)
    \/ ObsInsert(e) \/ ObsCrash(e) \/ ObsTimeout(e)

\* Events that open or close an agent step's window (they change agentOpen).
ObservedAgent(e) == ObsAgentBegin(e) \/ ObsAgentEnd(e)

-----------------------------------------------------------------------------
(* Unobserved steps.  First: the client whose request a switch sees next  *)
(* still has an operation open in the spec (an older request reached a     *)
(* switch after the client's timeout).  It is enabled only where the       *)
(* request's own step is not, so it adds no ambiguity.                      *)
AbandonBeforeRequest ==
    /\ Ev.e \in {"write", "readHit", "readMiss"}
    /\ ClientTimeout(Ev.c)

\* The second unobserved step: an open agent step's write takes effect.
AgentInWindow ==
    \E r \in agentOpen : AgentStep(r) /\ agentOpen' = agentOpen \ {r}

TraceNext ==
    \/ tl <= Len(Trace) /\ Observed(Ev) /\ tl' = tl + 1 /\ UNCHANGED agentOpen
    \/ tl <= Len(Trace) /\ ObservedAgent(Ev) /\ tl' = tl + 1
    \/ tl <= Len(Trace) /\ AbandonBeforeRequest /\ UNCHANGED <<tl, agentOpen>>
    \/ tl <= Len(Trace) /\ AgentInWindow /\ UNCHANGED tl

TraceSpec == TraceInit /\ [][TraceNext]_traceVars

\* State constraint that never prunes: prints the cursor whenever it goes
\* further than before, so a rejection can name the event it stopped at; a
\* cursor past the last event means "accepted" and stops TLC.
ASSUME TLCSet(2, 0)
CursorReport ==
    IF tl > TLCGet(2)
    THEN /\ TLCSet(2, tl)
         /\ PrintT(<<"trace-cursor", tl>>)
         /\ (tl > Len(Trace) => TLCSet("exit", TRUE))
    ELSE TRUE
=============================================================================
