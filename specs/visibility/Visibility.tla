----------------------------- MODULE Visibility -----------------------------
(***************************************************************************)
(* The in-switch data visibility layer ("Switch: Asynchronous Metadata     *)
(* Updating for Distributed Storage with In-Network Data Visibility",      *)
(* seed /work/shared/seeds/visibility-layer.txt, sections III and IV).     *)
(*                                                                         *)
(* Data nodes append log entries and stamp them with a per-hash-slot       *)
(* timestamp; a metadata node holds the key -> log-address index; the      *)
(* switch keeps a hash table of in-flight metadata updates (fingerprint,   *)
(* CurTs, MaxTs, metadata) so that a write is visible -- and committed --  *)
(* after one round trip, while the metadata node applies the update later  *)
(* (deferred, batched) and then clears the switch entry.                   *)
(*                                                                         *)
(* The network is explicit: every message is a record in the set `net`;   *)
(* any message may be delivered in any order, lost (bounded) or delivered  *)
(* while a copy stays in flight (a bounded duplicate).  Failures: packet   *)
(* loss on critical and non-critical paths, metadata node crash with       *)
(* rebuild from the data nodes, switch crash with system-wide              *)
(* resynchronisation.                                                      *)
(*                                                                         *)
(* Six BOOLEAN constants switch on buggy variants that TLC must refute     *)
(* (each named in MANIFEST with the invariant it violates).  The three the *)
(* issue asks for:                                                         *)
(*   BugOverwrite  - the switch installs a newer write over a non-clear    *)
(*                   entry (the lost-packet scenario of section III-B).    *)
(*   BugClearAny   - the switch clears an entry without checking that the  *)
(*                   clearing update's timestamp equals CurTs (III-B 1).   *)
(*   BugNoValidate - the data node serves a read without checking the key  *)
(*                   stored in the log entry, so a read trusts a colliding *)
(*                   switch entry (III-B 2).                               *)
(* Three more show that the other mechanisms are needed too:               *)
(*   BugNoBlock    - the switch returns a second-phase reply with a higher *)
(*                   timestamp than the busy entry to the client (III-B 1).*)
(*   BugMaxTsInstallOnly - only installed writes raise MaxTs, not the      *)
(*                   writes that fell back (III-B 1, MaxTs's definition).  *)
(*   BugResyncNoMaxTs - the switch restarts with MaxTs = 0 after a crash   *)
(*                   (III-E 3; our reading of the resynchronisation).      *)
(*   BugRestamp    - the data node stamps a retried write request with a   *)
(*                   new timestamp (III-E 1 requires the same reply):      *)
(*                   ReadSeesCommitted trusts timestamps and misses it;    *)
(*                   Linearizable refutes it.                              *)
(*                                                                         *)
(* Bounds live in the MC*.tla / MC*.cfg model files.  docs/specs/          *)
(* visibility.md maps paper sections to actions and lists what is left out.*)
(***************************************************************************)
EXTENDS Naturals, TLC

CONSTANTS
    Keys,          \* application keys (model values)
    Writes,        \* write operations; a write's id is also its log address
                   \* and its (unique) value, so a stale read is detectable
    Reads,         \* read operations
    Slots,         \* indices of the switch hash table (a set of naturals)
    SlotOf,        \* SlotOf[k]: hash index of key k
    FpOf,          \* FpOf[k]: fingerprint of key k (a natural)
    NoKey, NoW,    \* "no key" / "no write": empty metadata, key not found
    MaxLoss,       \* how many messages the network may drop
    MaxDup,        \* how many deliveries may leave a copy in flight
    MaxTimeouts,   \* how many timeout-driven re-sends may happen in all
    SpuriousTimeouts, \* TRUE: a timeout may fire while the message it waits
                   \*   for is still in flight; FALSE: only after a loss
    TimeoutKinds,  \* which timeouts exist: a subset of {"client", "clear",
                   \*   "stale"} (client retry, clear retry, stale entry)
    MaxMdnCrash,   \* how many metadata node crashes
    MaxSwCrash,    \* how many switch crashes
    BugOverwrite, BugClearAny, BugNoValidate,  \* buggy variants, see above
    BugNoBlock, BugMaxTsInstallOnly, BugResyncNoMaxTs,  \* further variants
    BugRestamp     \* the data node stamps a retried write afresh (III-E 1)

ASSUME /\ SlotOf \in [Keys -> Slots]
       /\ FpOf \in [Keys -> Nat]
       /\ NoKey \notin Keys /\ NoW \notin Writes
       /\ \A n \in {MaxLoss, MaxDup, MaxTimeouts, MaxMdnCrash, MaxSwCrash} : n \in Nat
       /\ SpuriousTimeouts \in BOOLEAN
       /\ TimeoutKinds \subseteq {"client", "clear", "stale"}
       /\ \A b \in {BugOverwrite, BugClearAny, BugNoValidate, BugNoBlock,
                    BugMaxTsInstallOnly, BugResyncNoMaxTs, BugRestamp} : b \in BOOLEAN

VARIABLES
    net,       \* set of in-flight messages (see Msg); delivery order is free
    dlog,      \* data nodes' logs: dlog[w] = [key, ts]; ts = 0: not appended
    tsGen,     \* tsGen[s]: last timestamp handed out for slot s (one timestamp
               \*   source per hash slot, held by the slot's data node, III-B 1)
    sw,        \* switch hash table: sw[s] = [valid, fp, key, w, ts]; ts is the
               \*   CurTs register, (key, w) the cached metadata
    maxTs,     \* switch MaxTs register per slot
    swUp,      \* FALSE from a switch crash until the resynchronisation ends
    idx,       \* metadata node index: idx[k] = [w, ts] (w = NoW: absent)
    deferred,  \* metadata node's buffer of deferred asynchronous updates
    pendClr,   \* clears the metadata node sent and has not seen acked
    wr,        \* client view of each write: [st, key, ts, commit]
    rd,        \* client view of each read: [st, key, start, val]
    clock,     \* logical clock ordering commits and read starts (history)
    faults,    \* fault and timeout budget used so far
    cleared,   \* history: [key, ts] of every entry that a clear removed
    wver,      \* history: wver[w] = the version of write w: its timestamp when
               \*   it was first externalized (committed, or returned by a
               \*   read); 0 = not yet.  Fixed from then on, whatever the
               \*   protocol later does to the write's timestamp
    lmax,      \* history: lmax[k] = largest version of any completed op on k
    lfl,       \* history: lfl[o] = lmax[key] when operation o was invoked
    linBad,    \* history: LinOk, or the first operation that could not be
               \*   placed in the linearization order (see Linearizable)
    act        \* history: name and parameters of the last action taken
               \*   (TLC's -simulate traces carry no action names); MC
               \*   files leave it out of the VIEW

linVars == <<wver, lmax, lfl, linBad>>
vars == <<net, dlog, tsGen, sw, maxTs, swUp, idx, deferred, pendClr,
          wr, rd, clock, faults, cleared, linVars, act>>

-----------------------------------------------------------------------------
(* Messages.  One record shape for all of them keeps TypeOK and TLC's value *)
(* comparisons simple; unused fields hold NoW / NoKey / 0.                  *)
(*   w  : the write (for read messages: the log address being read / the    *)
(*        value returned; NoW: key absent)                                  *)
(*   r  : the read (NoW in write messages); key: the key; ts: the write's   *)
(*        timestamp.  The hash index is SlotOf[key], computed by whoever    *)
(*        needs it, as the switch hashes the key's header field.            *)
Msg(t, w, r, k, ts) ==
    [type |-> t, w |-> w, r |-> r, key |-> k, ts |-> ts]

\* Critical path (III-E 1): the client waits for these; their loss is
\* repaired by a client timeout and retry.
CriticalTypes == {"WReq",   \* client -> data node: append this write
                  "WRep",   \* data node -> switch: appended at ts (reply 3)
                  "WAck",   \* switch -> client: committed
                  "WFb",    \* switch -> client: entry busy, do the 2nd phase
                  "MReq",   \* client -> metadata node: ordered 2nd phase
                  "MRep",   \* metadata node -> switch -> client: applied
                  "RReq",   \* client -> switch: read
                  "MRead",  \* switch -> metadata node: look the key up
                  "DRead",  \* switch/metadata node -> data node: read log
                  "RRep",   \* -> client: the read's value
                  "RNack"}  \* data node -> client: key validation failed
\* Non-critical path: nobody waits for these; their loss leaves a stale
\* switch entry that a timeout repairs.
NonCriticalTypes == {"MUpd",    \* switch -> metadata node: async update (4)
                     "Clr",     \* metadata node -> switch: clear entry (5)
                     "ClrAck"}  \* switch -> metadata node: clear seen

MsgType == CriticalTypes \cup NonCriticalTypes
Message == [type : MsgType, w : Writes \cup {NoW}, r : Reads \cup {NoW},
            key : Keys \cup {NoKey}, ts : Nat]

NoEntry == [valid |-> FALSE, fp |-> 0, key |-> NoKey, w |-> NoW, ts |-> 0]
Entry   == [valid : BOOLEAN, fp : Nat, key : Keys \cup {NoKey},
            w : Writes \cup {NoW}, ts : Nat]

Max(a, b) == IF a >= b THEN a ELSE b

\* The label every action leaves in act: `a` is the action of Next it is (what
\* conformance replay and its coverage count, docs/conformance.md), `name`
\* the outcome (SwInstall / SwFallback of SwWriteReply, SwReadHit /
\* SwReadMiss of SwRead; ActionCoverage and MANIFEST's covers= use it),
\* `args` its parameters, `dup` whether a copy stayed in flight.
NextActionOf(name) ==
    CASE name \in {"SwInstall", "SwFallback"} -> "SwWriteReply"
      [] name \in {"SwReadHit", "SwReadMiss"} -> "SwRead"
      [] OTHER -> name
Act(name, args, dup) == [a |-> NextActionOf(name), name |-> name, args |-> args, dup |-> dup]

\* linBad when every completed operation could be placed (see Linearizable).
LinOk == [op |-> NoW, key |-> NoKey, val |-> NoW, ver |-> 0, floor |-> 0]

\* The newest log entry of key k over all data nodes: what a rebuilt
\* metadata node learns for k (III-E 2).  Timestamps of a slot are unique,
\* so the CHOOSE has exactly one candidate.
Newest(k) ==
    LET ws == {w \in Writes : dlog[w].key = k /\ dlog[w].ts > 0}
    IN  IF ws = {} THEN [w |-> NoW, ts |-> 0]
        ELSE LET w == CHOOSE x \in ws : \A y \in ws : dlog[y].ts <= dlog[x].ts
             IN  [w |-> w, ts |-> dlog[w].ts]

\* The metadata node applies an update only if it is newer than what it
\* holds: updates reach it out of order (async copies, 2nd phases, resends),
\* and every operation is idempotent (III-E 1).
ApplyAll(ix, U) ==
    [k \in Keys |->
        LET c == {u \in U : u.key = k /\ u.ts > ix[k].ts}
        IN  IF c = {} THEN ix[k]
            ELSE LET u == CHOOSE x \in c : \A y \in c : y.ts <= x.ts
                 IN  [w |-> u.w, ts |-> u.ts]]

-----------------------------------------------------------------------------
TypeOK ==
    /\ net \subseteq Message
    /\ dlog \in [Writes -> [key : Keys \cup {NoKey}, ts : Nat]]
    /\ tsGen \in [Slots -> Nat]
    /\ sw \in [Slots -> Entry]
    /\ maxTs \in [Slots -> Nat]
    /\ swUp \in BOOLEAN
    /\ idx \in [Keys -> [w : Writes \cup {NoW}, ts : Nat]]
    /\ deferred \subseteq [w : Writes, key : Keys, ts : Nat]
    /\ pendClr \subseteq [key : Keys, ts : Nat]
    /\ wr \in [Writes -> [st : {"idle", "data", "meta", "done"},
                          key : Keys \cup {NoKey}, ts : Nat, commit : Nat]]
    /\ rd \in [Reads -> [st : {"idle", "pending", "done"},
                         key : Keys \cup {NoKey}, start : Nat,
                         val : Writes \cup {NoW}]]
    /\ clock \in Nat
    /\ faults \in [loss : Nat, dup : Nat, timeout : Nat, mdnCrash : Nat,
                   swCrash : Nat]
    /\ cleared \subseteq [key : Keys, ts : Nat]
    /\ act.name \in STRING
    /\ wver \in [Writes -> Nat]
    /\ lmax \in [Keys -> Nat]
    /\ lfl \in [Writes \cup Reads -> Nat]

Init ==
    /\ net = {}
    /\ dlog = [w \in Writes |-> [key |-> NoKey, ts |-> 0]]
    /\ tsGen = [s \in Slots |-> 0]
    /\ sw = [s \in Slots |-> NoEntry]
    /\ maxTs = [s \in Slots |-> 0]
    /\ swUp = TRUE
    /\ idx = [k \in Keys |-> [w |-> NoW, ts |-> 0]]
    /\ deferred = {}
    /\ pendClr = {}
    /\ wr = [w \in Writes |-> [st |-> "idle", key |-> NoKey, ts |-> 0, commit |-> 0]]
    /\ rd = [r \in Reads |-> [st |-> "idle", key |-> NoKey, start |-> 0, val |-> NoW]]
    /\ clock = 0
    /\ faults = [loss |-> 0, dup |-> 0, timeout |-> 0, mdnCrash |-> 0, swCrash |-> 0]
    /\ cleared = {}
    /\ wver = [w \in Writes |-> 0]
    /\ lmax = [k \in Keys |-> 0]
    /\ lfl = [o \in Writes \cup Reads |-> 0]
    /\ linBad = LinOk
    /\ act = Act("Init", <<>>, FALSE)

-----------------------------------------------------------------------------
(* Delivering m: remove it from the network and send `out`.  Within the     *)
(* duplicate budget a copy of m may stay in flight instead, to be delivered *)
(* again later (duplication).  The network is a set, so a re-send of a      *)
(* message identical to one in flight merges with it; delivering both       *)
(* copies is the duplicate case.  Every delivery records the action in act. *)
Recv(m, out, name, args) ==
    \/ /\ net' = (net \ {m}) \cup out
       /\ act' = Act(name, args, FALSE)
       /\ UNCHANGED faults
    \/ /\ faults.dup < MaxDup
       /\ net' = net \cup out
       /\ faults' = [faults EXCEPT !.dup = @ + 1]
       /\ act' = Act(name, args, TRUE)

\* Linearizability history (see Linearizable).  Operation o on key k
\* completes with write v (the write itself, or the value a read returned;
\* NoW: the key is absent, version 0).  v's version is fixed the first time
\* it is externalized: its timestamp in the data log at that moment.  The
\* operation must go after the end of k's order as it stood when o was
\* invoked (strictly, for a write), and a returned value must belong to k
\* and still carry its version.  A violation is recorded in linBad.
VersionOf(v) == IF v = NoW THEN 0 ELSE IF wver[v] > 0 THEN wver[v] ELSE dlog[v].ts
LinComplete(o, k, v, isWrite) ==
    LET ver    == VersionOf(v)
        placed == IF isWrite THEN ver > lfl[o] ELSE ver >= lfl[o]
        origin == v = NoW \/ (dlog[v].key = k /\ dlog[v].ts = ver)
    IN  /\ wver' = IF v = NoW THEN wver ELSE [wver EXCEPT ![v] = ver]
        /\ lmax' = [lmax EXCEPT ![k] = Max(@, ver)]
        /\ lfl' = [lfl EXCEPT ![o] = 0]    \* no longer needed: do not split states
        /\ linBad' = IF linBad = LinOk /\ ~(placed /\ origin)
                     THEN [op |-> o, key |-> k, val |-> v, ver |-> ver, floor |-> lfl[o]]
                     ELSE linBad

(***************************************************************************)
(* Write path (III-A 1, Fig. 2a).                                          *)
(***************************************************************************)

\* III-A 1 (step 1-2): a client starts write w on key k and sends the data
\* to the data node that owns k's hash slot (III-B 1, Fig. 3).
InvokeWrite(w, k) ==
    /\ wr[w].st = "idle"
    /\ wr' = [wr EXCEPT ![w] = [st |-> "data", key |-> k, ts |-> 0, commit |-> 0]]
    /\ net' = net \cup {Msg("WReq", w, NoW, k, 0)}
    /\ act' = Act("InvokeWrite", <<w, k>>, FALSE)
    /\ lfl' = [lfl EXCEPT ![w] = lmax[k]]
    /\ UNCHANGED <<cleared, dlog, tsGen, sw, maxTs, swUp, idx, deferred, pendClr, rd,
                   clock, faults, wver, lmax, linBad>>

\* III-A 1 (step 3), III-B 1: the data node appends the entry, stamping it
\* from the slot's timestamp source, and replies with the new metadata.  A
\* retried request (same request id, III-E 1) is not appended twice: the
\* data node re-sends the reply with the timestamp it already assigned.
DnWrite(m) ==
    /\ m.type = "WReq"
    /\ LET s  == SlotOf[m.key]
           ts == IF dlog[m.w].ts > 0 /\ ~BugRestamp THEN dlog[m.w].ts ELSE tsGen[s] + 1
       IN  /\ dlog' = [dlog EXCEPT ![m.w] = [key |-> m.key, ts |-> ts]]
           /\ tsGen' = [tsGen EXCEPT ![s] = Max(@, ts)]
           /\ Recv(m, {Msg("WRep", m.w, NoW, m.key, ts)}, "DnWrite", <<m.w, ts>>)
    /\ UNCHANGED <<cleared, sw, maxTs, swUp, idx, deferred, pendClr, wr, rd, clock, linVars>>

\* III-A 1 (steps 3-4), III-B 1: the reply passes the switch.  Every write
\* reply raises MaxTs.  The metadata is installed only if the entry is clear
\* and the timestamp exceeds MaxTs; the write is then committed by the
\* reply to the client, and a copy goes to the metadata node (step 4,
\* non-critical).  Otherwise the write falls back to the ordered two-phase
\* path.  BugOverwrite drops the "entry is clear" condition;
\* BugMaxTsInstallOnly raises MaxTs only when it installs.
SwWriteReply(m) ==
    /\ swUp /\ m.type = "WRep"
    /\ LET s == SlotOf[m.key]
           install == (~sw[s].valid \/ BugOverwrite) /\ m.ts > maxTs[s]
       IN  /\ maxTs' = IF install \/ ~BugMaxTsInstallOnly
                          THEN [maxTs EXCEPT ![s] = Max(@, m.ts)] ELSE maxTs
           /\ IF install
                THEN /\ sw' = [sw EXCEPT ![s] = [valid |-> TRUE, fp |-> FpOf[m.key],
                                   key |-> m.key, w |-> m.w, ts |-> m.ts]]
                     /\ Recv(m, {Msg("WAck", m.w, NoW, m.key, m.ts),
                                 Msg("MUpd", m.w, NoW, m.key, m.ts)},
                             "SwInstall", <<m.w, m.key, m.ts, sw[s]>>)
                ELSE /\ UNCHANGED sw
                     /\ Recv(m, {Msg("WFb", m.w, NoW, m.key, m.ts)},
                             "SwFallback", <<m.w, m.key, m.ts>>)
    /\ UNCHANGED <<cleared, dlog, tsGen, swUp, idx, deferred, pendClr, wr, rd, clock, linVars>>

\* III-A 1 (step 4): the client receives the acknowledgement and the write
\* is committed.  Duplicates and late copies after commit change nothing.
ClientCommit(m) ==
    /\ m.type = "WAck"
    /\ IF wr[m.w].st \in {"data", "meta"}
         THEN /\ wr' = [wr EXCEPT ![m.w].st = "done", ![m.w].commit = clock]
              /\ clock' = clock + 1
              /\ LinComplete(m.w, wr[m.w].key, m.w, TRUE)
         ELSE UNCHANGED <<wr, clock, linVars>>
    /\ Recv(m, {}, "ClientCommit", <<m.w>>)
    /\ UNCHANGED <<cleared, dlog, tsGen, sw, maxTs, swUp, idx, deferred, pendClr, rd>>

\* II-B, III-B 1: the entry was busy, so the client runs the data
\* visibility phase itself: it sends the metadata to the metadata node.
ClientFallback(m) ==
    /\ m.type = "WFb"
    /\ IF wr[m.w].st = "data"
         THEN /\ wr' = [wr EXCEPT ![m.w].st = "meta", ![m.w].ts = m.ts]
              /\ Recv(m, {Msg("MReq", m.w, NoW, m.key, m.ts)}, "ClientFallback", <<m.w>>)
         ELSE /\ UNCHANGED wr
              /\ Recv(m, {}, "ClientFallback", <<m.w>>)
    /\ UNCHANGED <<cleared, dlog, tsGen, sw, maxTs, swUp, idx, deferred, pendClr, rd, clock, linVars>>

\* III-D: second-phase requests are on the critical path, so the metadata
\* node processes them at once and replies (through the switch).
MdnUpdate(m) ==
    /\ m.type = "MReq"
    /\ idx' = ApplyAll(idx, {[w |-> m.w, key |-> m.key, ts |-> m.ts]})
    /\ Recv(m, {Msg("MRep", m.w, NoW, m.key, m.ts)}, "MdnUpdate", <<m.w, m.ts>>)
    /\ UNCHANGED <<cleared, dlog, tsGen, sw, maxTs, swUp, deferred, pendClr, wr, rd, clock, linVars>>

\* III-B 1: a metadata update reply passes the switch.  Equal timestamps
\* clear the entry (the metadata node holds that update now).  A reply with
\* a higher timestamp than a non-clear entry is blocked: it is not returned
\* to the client until the entry is cleared, the metadata node re-sending
\* it meanwhile.  The model keeps the blocked reply in flight (this action
\* is disabled for it), which is what "re-send until cleared" amounts to;
\* it can still be lost.  Lower timestamps pass: a newer write is visible.
\* BugClearAny clears whatever the timestamp; BugNoBlock never blocks.
SwMetaReply(m) ==
    /\ swUp /\ m.type = "MRep"
    /\ LET s == SlotOf[m.key]
           e == sw[s]
           clear == e.valid /\ (m.ts = e.ts \/ BugClearAny)
       IN  /\ ~(e.valid /\ ~clear /\ m.ts > e.ts) \/ BugNoBlock   \* not blocked
           /\ sw' = IF clear THEN [sw EXCEPT ![s] = NoEntry] ELSE sw
           /\ cleared' = IF clear THEN cleared \cup {[key |-> e.key, ts |-> e.ts]}
                                  ELSE cleared
           /\ Recv(m, {Msg("WAck", m.w, NoW, m.key, m.ts)}, "SwMetaReply",
                   [w |-> m.w, ts |-> m.ts, cleared |-> IF clear THEN e ELSE NoEntry])
    /\ UNCHANGED <<dlog, tsGen, maxTs, swUp, idx, deferred, pendClr, wr, rd, clock, linVars>>

(***************************************************************************)
(* Asynchronous metadata updates and clearing (III-A 1 steps 4-5, III-D).  *)
(***************************************************************************)

\* III-D: asynchronous updates are off the critical path; the metadata node
\* buffers them.
MdnDefer(m) ==
    /\ m.type = "MUpd"
    /\ deferred' = deferred \cup {[w |-> m.w, key |-> m.key, ts |-> m.ts]}
    /\ Recv(m, {}, "MdnDefer", <<m.w, m.ts>>)
    /\ UNCHANGED <<cleared, dlog, tsGen, sw, maxTs, swUp, idx, pendClr, wr, rd, clock, linVars>>

\* III-D, III-A 1 (step 5): when the buffer is full or the node is idle
\* (a timing we leave free), it applies the whole buffer as one batch
\* (operation combining only reorders within the batch) and asks the switch
\* to clear each entry, naming the timestamp it applied.
MdnBatch ==
    /\ deferred # {}
    /\ idx' = ApplyAll(idx, deferred)
    /\ deferred' = {}
    /\ pendClr' = pendClr \cup {[key |-> d.key, ts |-> d.ts] : d \in deferred}
    /\ net' = net \cup {Msg("Clr", NoW, NoW, d.key, d.ts) : d \in deferred}
    /\ act' = Act("MdnBatch", deferred, FALSE)
    /\ UNCHANGED <<cleared, dlog, tsGen, sw, maxTs, swUp, wr, rd, clock, faults, linVars>>

\* III-B 1, III-E 1: a clear request clears the entry only if its
\* timestamp equals CurTs, so a late or repeated clear cannot remove a newer
\* entry.  The switch acknowledges every clear it sees.  BugClearAny skips
\* the timestamp comparison.
SwClear(m) ==
    /\ swUp /\ m.type = "Clr"
    /\ LET s == SlotOf[m.key]
           e == sw[s]
           clear == e.valid /\ (m.ts = e.ts \/ BugClearAny)
       IN  /\ sw' = IF clear THEN [sw EXCEPT ![s] = NoEntry] ELSE sw
           /\ cleared' = IF clear THEN cleared \cup {[key |-> e.key, ts |-> e.ts]}
                                  ELSE cleared
           /\ Recv(m, {Msg("ClrAck", NoW, NoW, m.key, m.ts)}, "SwClear",
                   [w |-> NoW, ts |-> m.ts, cleared |-> IF clear THEN e ELSE NoEntry])
    /\ UNCHANGED <<dlog, tsGen, maxTs, swUp, idx, deferred, pendClr, wr, rd, clock, linVars>>

\* III-E 1: the acknowledgement ends the metadata node's clear retries.
MdnClrAck(m) ==
    /\ m.type = "ClrAck"
    /\ pendClr' = pendClr \ {[key |-> m.key, ts |-> m.ts]}
    /\ Recv(m, {}, "MdnClrAck", <<m.key, m.ts>>)
    /\ UNCHANGED <<cleared, dlog, tsGen, sw, maxTs, swUp, idx, deferred, wr, rd, clock, linVars>>

(***************************************************************************)
(* Read path (III-A 2, III-B 2, Fig. 2b).                                  *)
(***************************************************************************)

\* III-A 2 (step 1): a client starts read r of key k.
InvokeRead(r, k) ==
    /\ rd[r].st = "idle"
    /\ rd' = [rd EXCEPT ![r] = [st |-> "pending", key |-> k, start |-> clock, val |-> NoW]]
    /\ clock' = clock + 1
    /\ net' = net \cup {Msg("RReq", NoW, r, k, 0)}
    /\ act' = Act("InvokeRead", <<r, k>>, FALSE)
    /\ lfl' = [lfl EXCEPT ![r] = lmax[k]]
    /\ UNCHANGED <<cleared, dlog, tsGen, sw, maxTs, swUp, idx, deferred, pendClr, wr, faults,
                   wver, lmax, linBad>>

\* III-A 2, III-B 2: the switch serves the read from its table when the
\* entry at the key's hash index is valid and its fingerprint matches: the
\* metadata goes with the request to the data node.  Otherwise the read
\* takes the original path through the metadata node.
SwRead(m) ==
    /\ swUp /\ m.type = "RReq"
    /\ LET e == sw[SlotOf[m.key]]
       IN  IF e.valid /\ e.fp = FpOf[m.key]
             THEN Recv(m, {Msg("DRead", e.w, m.r, m.key, 0)}, "SwReadHit", <<m.r, e.w>>)
             ELSE Recv(m, {Msg("MRead", NoW, m.r, m.key, 0)}, "SwReadMiss", <<m.r>>)
    /\ UNCHANGED <<cleared, dlog, tsGen, sw, maxTs, swUp, idx, deferred, pendClr, wr, rd, clock, linVars>>

\* II-B: the metadata node looks the key up; an absent key is answered at once.
MdnRead(m) ==
    /\ m.type = "MRead"
    /\ LET i == idx[m.key]
       IN  IF i.w = NoW
             THEN Recv(m, {Msg("RRep", NoW, m.r, m.key, 0)}, "MdnRead", <<m.r, NoW>>)
             ELSE Recv(m, {Msg("DRead", i.w, m.r, m.key, 0)}, "MdnRead", <<m.r, i.w>>)
    /\ UNCHANGED <<cleared, dlog, tsGen, sw, maxTs, swUp, idx, deferred, pendClr, wr, rd, clock, linVars>>

\* III-B 2: the data node stores the whole key with the log entry and
\* answers only if it equals the queried key; otherwise the client is told
\* to retry.  BugNoValidate answers with whatever the entry holds.
DnRead(m) ==
    /\ m.type = "DRead"
    /\ IF dlog[m.w].key = m.key \/ BugNoValidate
         THEN Recv(m, {Msg("RRep", m.w, m.r, m.key, 0)}, "DnRead", <<m.r, m.w, TRUE>>)
         ELSE Recv(m, {Msg("RNack", NoW, m.r, m.key, 0)}, "DnRead", <<m.r, m.w, FALSE>>)
    /\ UNCHANGED <<cleared, dlog, tsGen, sw, maxTs, swUp, idx, deferred, pendClr, wr, rd, clock, linVars>>

\* III-A 2 (step 2): the read completes with the returned value.
ClientReadDone(m) ==
    /\ m.type = "RRep"
    /\ IF rd[m.r].st = "pending"
         THEN /\ rd' = [rd EXCEPT ![m.r].st = "done", ![m.r].val = m.w]
              /\ LinComplete(m.r, rd[m.r].key, m.w, FALSE)
         ELSE UNCHANGED <<rd, linVars>>
    /\ Recv(m, {}, "ClientReadDone", <<m.r, m.w>>)
    /\ UNCHANGED <<cleared, dlog, tsGen, sw, maxTs, swUp, idx, deferred, pendClr, wr, clock>>

\* III-B 2: validation failed; the client retries the read (as often as it
\* takes: until the entry matches its key or is cleared).
ClientReadRetry(m) ==
    /\ m.type = "RNack"
    /\ IF rd[m.r].st = "pending"
         THEN Recv(m, {Msg("RReq", NoW, m.r, m.key, 0)}, "ClientReadRetry", <<m.r>>)
         ELSE Recv(m, {}, "ClientReadRetry", <<m.r>>)
    /\ UNCHANGED <<cleared, dlog, tsGen, sw, maxTs, swUp, idx, deferred, pendClr, wr, rd, clock, linVars>>

(***************************************************************************)
(* Timeouts (III-E 1).  The paper sets the timeout to about 100 round    *)
(* trips, so that it "highly probably" means a genuine loss.  With         *)
(* SpuriousTimeouts a timeout may fire at any time (jitter); without, only *)
(* once nothing it waits for is in flight any more.  All re-sends are      *)
(* idempotent.  They share one budget.                                     *)
(***************************************************************************)
Timeout(name, args, waitingFor(_), out) ==
    /\ SpuriousTimeouts \/ \A m \in net : ~waitingFor(m)
    /\ faults.timeout < MaxTimeouts
    /\ faults' = [faults EXCEPT !.timeout = @ + 1]
    /\ net' = net \cup out
    /\ act' = Act(name, args, FALSE)
    /\ UNCHANGED <<cleared, dlog, tsGen, sw, maxTs, swUp, idx, deferred, pendClr, wr, rd, clock, linVars>>

\* III-E 1, Table II (critical path): the client re-sends the request of
\* the phase it is in.
ClientWriteTimeout(w) ==
    /\ "client" \in TimeoutKinds
    /\ wr[w].st \in {"data", "meta"}
    /\ LET \* what the client still waits for (a fallback notice only in "data")
           ops(m) == /\ m.w = w
                     /\ m.type \in {"WReq", "WRep", "WAck", "WFb", "MReq", "MRep"}
                     /\ m.type = "WFb" => wr[w].st = "data"
       IN  Timeout("ClientWriteTimeout", <<w>>, ops,
               IF wr[w].st = "data" THEN {Msg("WReq", w, NoW, wr[w].key, 0)}
                                    ELSE {Msg("MReq", w, NoW, wr[w].key, wr[w].ts)})

ClientReadTimeout(r) ==
    /\ "client" \in TimeoutKinds
    /\ rd[r].st = "pending"
    /\ LET ops(m) == m.r = r /\ m.type \in {"RReq", "MRead", "DRead", "RRep", "RNack"}
       IN  Timeout("ClientReadTimeout", <<r>>, ops, {Msg("RReq", NoW, r, rd[r].key, 0)})

\* III-E 1: no acknowledgement for a clear: the metadata node re-sends it
\* (it carries the timestamp, so it cannot invalidate a newer entry).
MdnClearTimeout(c) ==
    /\ "clear" \in TimeoutKinds
    /\ c \in pendClr
    /\ LET ops(m) == m.type \in {"Clr", "ClrAck"} /\ m.key = c.key /\ m.ts = c.ts
       IN  Timeout("MdnClearTimeout", <<c.key, c.ts>>, ops, {Msg("Clr", NoW, NoW, c.key, c.ts)})

\* III-E 1, Table II (non-critical path): an entry that stays valid too
\* long is stale because an asynchronous update or its clear was lost.  The
\* paper has the metadata node invalidate it; it cannot do so safely
\* without the update, so we model the repair as the entry's metadata being
\* re-sent to the metadata node (from the switch's registers), which then
\* applies it and clears the entry in the usual way.  (Our reading; see the
\* doc.)
SwStaleTimeout(s) ==
    /\ "stale" \in TimeoutKinds
    /\ swUp /\ sw[s].valid
    /\ LET e == sw[s]
           ops(m) == m.type \in {"MUpd", "Clr"} /\ m.key = e.key /\ m.ts = e.ts
       IN  /\ SpuriousTimeouts \/ \A d \in deferred : d.ts # e.ts \/ d.key # e.key
           /\ Timeout("SwStaleTimeout", <<s>>, ops, {Msg("MUpd", e.w, NoW, e.key, e.ts)})

(***************************************************************************)
(* Faults (III-E, Table II).                                               *)
(***************************************************************************)

\* III-E 1: any packet, critical or not, may be lost.
Lose(m) ==
    /\ faults.loss < MaxLoss
    /\ net' = net \ {m}
    /\ faults' = [faults EXCEPT !.loss = @ + 1]
    /\ act' = Act("Lose", <<m, IF m.type \in CriticalTypes
                                THEN "critical" ELSE "non-critical">>, FALSE)
    /\ UNCHANGED <<cleared, dlog, tsGen, sw, maxTs, swUp, idx, deferred, pendClr, wr, rd, clock, linVars>>

\* III-E 2: the metadata node crashes and a new instance is rebuilt from
\* the metadata the data nodes extract from their logs.  Crash and rebuild
\* are one step: meanwhile the node answers nothing, which message loss and
\* delay already cover.  Its deferred buffer and clear retries are gone.
MdnCrash ==
    /\ faults.mdnCrash < MaxMdnCrash
    /\ faults' = [faults EXCEPT !.mdnCrash = @ + 1]
    /\ idx' = [k \in Keys |-> Newest(k)]
    /\ deferred' = {}
    /\ pendClr' = {}
    /\ act' = Act("MdnCrash", <<>>, FALSE)
    /\ UNCHANGED <<cleared, net, dlog, tsGen, sw, maxTs, swUp, wr, rd, clock, linVars>>

\* III-E 3: the switch crashes; every entry and register is lost.  Until
\* the resynchronisation ends it forwards nothing (acceleration disabled
\* system-wide); packets wait or are lost.
SwCrash ==
    /\ swUp /\ faults.swCrash < MaxSwCrash
    /\ faults' = [faults EXCEPT !.swCrash = @ + 1]
    /\ swUp' = FALSE
    /\ sw' = [s \in Slots |-> NoEntry]
    /\ maxTs' = [s \in Slots |-> 0]
    /\ act' = Act("SwCrash", <<>>, FALSE)
    /\ UNCHANGED <<cleared, net, dlog, tsGen, idx, deferred, pendClr, wr, rd, clock, linVars>>

\* III-E 3: coordinated recovery.  The metadata node drains its queue and
\* synchronises with all data nodes (its index becomes the newest logged
\* metadata of every key, which includes every drained update); the
\* switch's MaxTs registers are reloaded from the data nodes' timestamp
\* sources, so a reply sent before the crash cannot install metadata older
\* than what the metadata node holds (our reading; see the doc).
\* BugResyncNoMaxTs restarts them at 0 instead.
SwResync ==
    /\ ~swUp
    /\ swUp' = TRUE
    /\ idx' = [k \in Keys |-> Newest(k)]
    /\ deferred' = {}
    /\ pendClr' = {}
    /\ maxTs' = IF BugResyncNoMaxTs THEN [s \in Slots |-> 0] ELSE tsGen
    /\ act' = Act("SwResync", <<>>, FALSE)
    /\ UNCHANGED <<cleared, net, dlog, tsGen, sw, wr, rd, clock, faults, linVars>>

-----------------------------------------------------------------------------
\* Delivering a message: Next lists the same disjuncts itself, so that every
\* action of Next is named there (conformance coverage counts them);
\* VisibilityLive's fairness is stated per message type through Deliver.
Deliver(m) ==
    \/ DnWrite(m) \/ SwWriteReply(m) \/ ClientCommit(m) \/ ClientFallback(m)
    \/ MdnUpdate(m) \/ SwMetaReply(m) \/ MdnDefer(m) \/ SwClear(m)
    \/ MdnClrAck(m) \/ SwRead(m) \/ MdnRead(m) \/ DnRead(m)
    \/ ClientReadDone(m) \/ ClientReadRetry(m)

Next ==
    \/ \E w \in Writes, k \in Keys : InvokeWrite(w, k)
    \/ \E r \in Reads, k \in Keys : InvokeRead(r, k)
    \/ \E m \in net : \/ DnWrite(m) \/ SwWriteReply(m) \/ ClientCommit(m) \/ ClientFallback(m)
                      \/ MdnUpdate(m) \/ SwMetaReply(m) \/ MdnDefer(m) \/ SwClear(m)
                      \/ MdnClrAck(m) \/ SwRead(m) \/ MdnRead(m) \/ DnRead(m)
                      \/ ClientReadDone(m) \/ ClientReadRetry(m) \/ Lose(m)
    \/ MdnBatch
    \/ \E w \in Writes : ClientWriteTimeout(w)
    \/ \E r \in Reads : ClientReadTimeout(r)
    \/ \E c \in pendClr : MdnClearTimeout(c)
    \/ \E s \in Slots : SwStaleTimeout(s)
    \/ MdnCrash \/ SwCrash \/ SwResync

Spec == Init /\ [][Next]_vars

\* Action coverage for ./innet verify (docs/models.md, "No vacuous models"):
\* not a property.  Prints each action name the first time a newly found
\* state carries it (TLC register 1 holds the names printed; the ASSUME sets
\* it for every worker).  A step into an already known state is not checked
\* again, so the report can only under-count.
ASSUME TLCSet(1, {})
ActionCoverage ==
    \/ act.name \in TLCGet(1)
    \/ /\ TLCSet(1, TLCGet(1) \cup {act.name})
       /\ PrintT(<<"innet-action", act.name>>)

-----------------------------------------------------------------------------
(***************************************************************************)
(* Properties.                                                             *)
(***************************************************************************)

Committed(w) == wr[w].st = "done"
TsOf(w)  == IF w = NoW THEN 0 ELSE dlog[w].ts
KeyOf(w) == IF w = NoW THEN NoKey ELSE dlog[w].key

\* Linearizability surrogate (II-B): a read returns a value written to its
\* own key (or "absent"), and never one older than a write to that key that
\* committed before the read started.  For one key, timestamp order is the
\* order of the writes (keys of a slot share a timestamp source), so "w or
\* newer" is "timestamp at least w's".
ReadSeesCommitted ==
    \A r \in Reads : rd[r].st = "done" =>
        /\ rd[r].val = NoW \/ KeyOf(rd[r].val) = rd[r].key
        /\ \A w \in Writes :
              (Committed(w) /\ wr[w].key = rd[r].key /\ wr[w].commit < rd[r].start)
                 => TsOf(rd[r].val) >= TsOf(w)

\* III-B 1, III-E 1: an entry is never cleared on behalf of an update older
\* than (or other than) the one it holds.  Stated by its purpose: the switch
\* clears an entry only once the metadata node indexes that entry's key at
\* the entry's timestamp or newer.  `cleared` records the metadata of every
\* entry a clear removed; the index only grows (every update and every
\* rebuild is applied "if newer", from logged entries), so checking it in
\* every later state is the same as checking it at the clear.
\* Linearizability (in the style of the Pegasus spec), not trusting the
\* protocol's timestamps: versions are recorded by the history when a write
\* is first externalized.  The order: writes of a key by version, each read
\* right after the write it returned (absent = version 0).  It is a valid
\* linearization iff every operation is placed at or after the end of the
\* order as it stood at its invocation (strictly after, for a write): an
\* operation that starts after another completed is ordered after it, reads
\* after reads included; and every read returns a write of its own key that
\* still carries the version it was externalized with (a write re-stamped
\* later would otherwise look newer than it is).  LinComplete records the
\* first operation that cannot be placed.
Linearizable == linBad = LinOk

NoClearByOlder ==
    \A c \in cleared : idx[c.key].ts >= c.ts

\* III-B 1 (Fig. 4 discussion), III-E: no committed write is lost.  While
\* the switch is up, the newest metadata of every committed write's key, at
\* least as new as the write, is somewhere a read or the metadata node will
\* find it: the index, the deferred buffer, the switch entry holding that
\* key, or an update in flight to the metadata node.  (During a switch
\* recovery only the data logs hold it; the resynchronisation restores it.)
NoCommittedWriteLost ==
    swUp =>
      \A w \in Writes : Committed(w) =>
        LET k == wr[w].key  t == TsOf(w)
        IN  \/ idx[k].ts >= t
            \/ \E d \in deferred : d.key = k /\ d.ts >= t
            \/ \E s \in Slots : sw[s].valid /\ sw[s].key = k /\ sw[s].ts >= t
            \/ \E m \in net : m.type = "MUpd" /\ m.key = k /\ m.ts >= t

=============================================================================
