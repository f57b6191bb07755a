------------------------------ MODULE NetCache ------------------------------
(***************************************************************************)
(* NetCache as innet implements it: the write-through in-switch cache      *)
(* baseline of FarReach §5 (after Jin et al., SOSP '17), i.e. the data     *)
(* plane p4/netcache.p4 (cases NC-1..NC-10 of docs/p4-programs.md §4), the *)
(* family's storage servers (impl-java/kv .../server/StorageServer.java)   *)
(* and the NetCache controller (impl-java/netcache).                       *)
(*                                                                         *)
(* Actors: clients, servers (keys partitioned by Owner), the switch (key   *)
(* table, per-record valid flag and record register = staged or cached     *)
(* value with its seq, per-key sequence counter) and the controller       *)
(* (admission installs a key invalid with seq 0; eviction removes it).    *)
(* The network is a SET of in-flight messages: any order, loss (budget    *)
(* MaxLoss) and duplication (budget MaxDup, "deliver and keep").  No       *)
(* channel is FIFO.  The switch handles each packet in one atomic step    *)
(* (one pass through the ingress pipeline).                                *)
(*                                                                         *)
(* Why the cache can be trusted at all: every write goes to the server;   *)
(* a write to a cached key first invalidates the record, and only a       *)
(* server reply can make it valid again, and only if its seq is at least  *)
(* the key's counter (seq_bound): no write numbered later can be in       *)
(* flight, so the reply describes the newest write the switch has seen.  *)
(*                                                                         *)
(* Modelling choices that keep the state space small, each argued sound   *)
(* in docs/specs/netcache.md:                                              *)
(*  - a client request is handled by the switch in the step the client    *)
(*    sends it, and a switch-answered read completes in that step;        *)
(*  - a server reply is handled by the switch and delivered to the client *)
(*    in one step (a reply the switch handled and then lost only makes    *)
(*    the client give up instead of learning of its write: a weaker       *)
(*    check than the one modelled);                                        *)
(*  - write values are write ids 1..MaxWrites, 0 is the initial value,    *)
(*    held by every server with seq 0 from the start.                     *)
(*  - hot-key detection and reports are abstracted: the controller may    *)
(*    admit any uncached key at any time (NetCache's admission ignores the *)
(*    reported value, so the report carries nothing the spec needs).      *)
(*                                                                         *)
(* Bug flags turn on one known-wrong variant each; with all flags FALSE   *)
(* the spec is the protocol as implemented.                                *)
(***************************************************************************)
EXTENDS Integers, FiniteSets, TLC

CONSTANTS
    Client,          \* client identifiers
    Server,          \* server identifiers
    Key,             \* keys
    Owner,           \* Owner[k]: the server that stores key k (partitioning)
    CacheSize,       \* cache slots (cache_lookup entries)
    \* ---- bounds (all models are finite because of these) ----
    MaxWrites,       \* total client writes (also the largest value; seqs reach MaxWrites + MaxSwitchCrash)
    MaxReads,        \* total client reads
    MaxLoss,         \* messages the network may lose
    MaxDup,          \* messages the network may duplicate
    MaxAdmit,        \* admissions the controller may perform
    MaxEvict,        \* evictions the controller may perform
    MaxSwitchCrash,  \* switch crashes (each followed at once by a restart with empty registers)
    \* ---- design option ----
    RestartSeqBase,  \* TRUE: on a fresh switch the controller raises every seq counter strictly
                     \*   above every seq assigned before (NetCacheController.programFreshSwitch with
                     \*   kv.cache.SequenceBase, as the implementation does).  FALSE: counters restart
                     \*   at 0, the implementation before that fix; MCNetCacheRestart(Reads) show
                     \*   what that costs.
    \* ---- bug flags: each TRUE flag replaces one rule by a wrong one ----
    BugRefillUnguarded,  \* NC-8 without "seq >= seq_bound": a GET_FOR_CACHE_REPLY refills an
                         \*   invalid record although a write numbered later may be in flight
    BugServerIgnoresSeq, \* servers apply every PUT_SEQ, newer or not (RecordStore BY_SEQUENCE dropped)
    BugNoInvalidate,     \* NC-4 skipped: a write to a cached key is forwarded without invalidating
                         \*   (or staging into) the cached record
    \* The next two are each harmless alone (two defences of one rule; see the doc) and
    \* wrong together: only their combination has a refuted model.
    BugCommitUnguarded,  \* NC-7 without "seq >= seq_bound": a PUT_REPLY for the staged seq commits
    BugAdmitKeepsSeq     \* admission does not reset record_seq: the slot keeps the seq (and value)
                         \*   a write staged before the key's previous eviction

\* The fill rule (docs/specs/netcache.md, "Filling by what the switch has
\* seen").  The rules above compare a reply with the key's own counter ctr[k];
\* netcache.p4 numbers writes in counter slots shared by many keys, so it has
\* no such counter, and with the slot's counter a key admitted after another
\* key of its slot was written stays invalid until its own next write.
\* FillBySeen: the switch keeps, per cached key, seen[k], the highest seq of
\* the key it has seen pass since admission (the writes it numbers and every
\* server reply of the key), and fillFloor[k], the key's server record's seq
\* after the key was installed, which the controller probes (SEQ_PROBE); a
\* PUT_REPLY commits (NC-7) and a GET_FOR_CACHE_REPLY refills (NC-8) only at
\* or above both, and a server reply of the key newer than a valid record
\* invalidates it.  A model sets FillBySeen <- CounterGuard to check the
\* per-key counter rule (ctr[k]) instead.
\* BugSeenNoFloor: admission sends no probe and leaves the floor as it was.
\* BugProbeAnyAdmission: the controller takes a probe reply of an earlier
\* admission of the key as this admission's floor.
\* BugSeenNoOutdate: a newer server reply leaves a valid record valid.
\* These are defined operators (not CONSTANTS) so that the models written
\* before them need no new lines; a model overrides them in its .cfg.
FillBySeen == TRUE
CounterGuard == FALSE
BugSeenNoFloor == FALSE
BugProbeAnyAdmission == FALSE
BugSeenNoOutdate == FALSE

ASSUME Owner \in [Key -> Server]
ASSUME CacheSize \in Nat \ {0}
ASSUME \A n \in {MaxWrites, MaxReads, MaxLoss, MaxDup, MaxAdmit, MaxEvict, MaxSwitchCrash} : n \in Nat
ASSUME RestartSeqBase \in BOOLEAN
ASSUME \A b \in {BugRefillUnguarded, BugServerIgnoresSeq, BugNoInvalidate,
                 BugCommitUnguarded, BugAdmitKeepsSeq} : b \in BOOLEAN

Val   == 0..MaxWrites                    \* 0 is every key's initial value
\* One seq per write, and each restart with RestartSeqBase skips one number
\* (see SwitchRestart), so no seq exceeds MaxWrites + MaxSwitchCrash.
SeqNo == 0..(MaxWrites + MaxSwitchCrash)
Rec   == [v : Val, s : SeqNo]            \* a record: value and switch-assigned sequence number
Init0 == [v |-> 0, s |-> 0]              \* the record every server starts with
\* FillBySeen: the fill floor of a record whose probe has not returned yet,
\* above every seq (no reply commits or refills the record); netcache.p4's
\* FLOOR_UNKNOWN = 0xFFFFFFFF.
FloorUnknown == MaxWrites + MaxSwitchCrash + 1

Max(a, b) == IF a >= b THEN a ELSE b

\* Client operation slots and the read history entry.
NoOp   == [t |-> "none", k |-> "none", id |-> 0, floor |-> 0]
NoRead == [floor |-> 0, got |-> 0]

VARIABLES
    \* ---- switch (data plane) ----
    cached,    \* cached[k]: k has a cache_lookup entry
    valid,     \* valid[k]: record_valid of k's slot (1 = the cached value is the server's)
    rrec,      \* rrec[k]: value registers + record_seq of k's slot: the cached record while
               \*   valid, the record staged by the last write while invalid (s = 0: none staged)
    ctr,       \* ctr[k]: seq_counter, the last seq assigned to a write of k (every key, cached or not)
    seen,      \* seen[k]: highest seq of k seen at the switch since k's admission (FillBySeen;
               \*   record_seen_seq)
    fillFloor, \* fillFloor[k]: k's server record's seq after k's install, FloorUnknown until the
               \*   probe returns (FillBySeen; record_fill_floor)
    \* ---- controller ----
    probing,   \* probing[k]: the admission (its number) whose fill-floor probe of k's server the
               \*   controller waits for, 0 if none (FillBySeen)
    \* ---- servers ----
    store,     \* store[k]: record of k at Owner[k]
    \* ---- clients ----
    pend,      \* pend[c]: the client's outstanding operation (NoOp if idle)
    \* ---- network ----
    net,       \* set of messages in flight
    \* ---- counters and bounds ----
    nW,        \* writes issued (the next write id is nW+1)
    nR,        \* reads issued
    nLoss,     \* messages lost so far
    nDup,      \* messages duplicated so far
    nAdmit,    \* admissions performed
    nEvict,    \* evictions performed
    nCrash,    \* switch crashes so far
    \* ---- history (ghost) variables, used only by invariants and traces ----
    doneMax,   \* doneMax[k]: largest id of a write to k acknowledged to its client
    obs,       \* obs[k]: highest seq of k a client has learnt from a server's reply (an
               \*   acknowledgement or a read); kept only with FillBySeen (CacheCoherent)
    lastRead,  \* the most recent completed read: floor = doneMax[key] when it began, value got.
               \* ReadsNotStale is checked in every state, so checking the latest read checks all.
    act        \* the last action and its parameters (for traces; not part of the VIEW)

switchVars == <<cached, valid, rrec, ctr, seen, fillFloor>>
cntVars    == <<nW, nR, nLoss, nDup, nAdmit, nEvict, nCrash>>
ghostVars  == <<doneMax, obs, lastRead>>
vars == <<switchVars, probing, store, pend, net, cntVars, ghostVars, act>>
\* Everything but the action label: model files use this as the VIEW so that
\* `act` does not multiply the number of distinct states.
viewVars == <<switchVars, probing, store, pend, net, cntVars, ghostVars>>

-----------------------------------------------------------------------------
(* Messages.  Fields: t = type (names follow docs/wire-format.md §3).        *)
(*  put    PUT_SEQ              switch -> server        c, k, id (= value), s *)
(*  putR   PUT_REPLY            server -> switch/client c, k, id, s           *)
(*  get    GET / GET_FOR_CACHE  switch -> server        c, k, id, cons        *)
(*  getR   GET_REPLY            server -> client        c, k, id, rec         *)
(*  getRC  GET_FOR_CACHE_REPLY  server -> switch/client c, k, id, rec         *)
(*  probe  SEQ_PROBE            controller -> server    k, a (admission)      *)
(*  probeR SEQ_PROBE_REPLY      server -> controller    k, a, s (FillBySeen)  *)
(* HOT_REPORT is abstracted (see the header).                               *)
-----------------------------------------------------------------------------

Msg ==
         [t : {"put", "putR"}, c : Client, k : Key, id : 1..MaxWrites, s : SeqNo]
    \cup [t : {"get"}, c : Client, k : Key, id : 1..MaxReads, cons : BOOLEAN]
    \cup [t : {"getR", "getRC"}, c : Client, k : Key, id : 1..MaxReads, rec : Rec]
    \cup [t : {"probe"}, k : Key, a : 1..MaxAdmit]
    \cup [t : {"probeR"}, k : Key, a : 1..MaxAdmit, s : SeqNo]

OpT == [t : {"w", "r"}, k : Key, id : 0..Max(MaxWrites, MaxReads), floor : Val] \cup {NoOp}

TypeOK ==
    /\ cached \in [Key -> BOOLEAN]
    /\ valid \in [Key -> BOOLEAN]
    /\ rrec \in [Key -> Rec]
    /\ ctr \in [Key -> SeqNo]
    /\ seen \in [Key -> SeqNo]
    /\ fillFloor \in [Key -> SeqNo \cup {FloorUnknown}]
    /\ probing \in [Key -> 0..MaxAdmit]
    /\ store \in [Key -> Rec]
    /\ pend \in [Client -> OpT]
    /\ net \subseteq Msg
    /\ nW \in 0..MaxWrites /\ nR \in 0..MaxReads
    /\ nLoss \in 0..MaxLoss /\ nDup \in 0..MaxDup
    /\ nAdmit \in 0..MaxAdmit /\ nEvict \in 0..MaxEvict /\ nCrash \in 0..MaxSwitchCrash
    /\ doneMax \in [Key -> Val]
    /\ obs \in [Key -> SeqNo]
    /\ lastRead \in [floor : Val, got : Val]

-----------------------------------------------------------------------------
Init ==
    /\ cached = [k \in Key |-> FALSE]
    /\ valid = [k \in Key |-> FALSE]
    /\ rrec = [k \in Key |-> Init0]
    /\ ctr = [k \in Key |-> 0]
    /\ seen = [k \in Key |-> 0]
    /\ fillFloor = [k \in Key |-> 0]
    /\ probing = [k \in Key |-> 0]
    /\ store = [k \in Key |-> Init0]
    /\ pend = [c \in Client |-> NoOp]
    /\ net = {}
    /\ nW = 0 /\ nR = 0 /\ nLoss = 0 /\ nDup = 0 /\ nAdmit = 0 /\ nEvict = 0 /\ nCrash = 0
    /\ doneMax = [k \in Key |-> 0]
    /\ obs = [k \in Key |-> 0]
    /\ lastRead = NoRead
    /\ act = [a |-> "Init"]

-----------------------------------------------------------------------------
(* Helpers *)

Hit(k)  == cached[k] /\ valid[k]        \* the switch answers reads of k (NC-1)

\* An upper bound on every seq assigned so far: a write raises one counter by
\* one and nW by one, a restart with RestartSeqBase puts the counters at
\* SeqCeiling + 1 and nCrash by one, so ctr[k] <= nW + nCrash throughout
\* (SeqsBelowCeiling checks it).  The implementation's ceiling is the top of
\* the current incarnation's 2^24 block; only "above every old seq" matters.
SeqCeiling == nW + nCrash
NCached == Cardinality({k \in Key : cached[k]})

\* The seq a server reply of cached key k must reach to commit (NC-7) or
\* refill (NC-8): no write of k numbered later can be in flight.  With
\* FillBySeen (FloorUnknown is above every seq, so a record whose probe has
\* not returned is never made valid) or the key's own counter.
RefreshBound(k) == IF FillBySeen THEN Max(fillFloor[k], seen[k]) ELSE ctr[k]

\* FillBySeen: a server reply of k carrying seq s passes the switch on its way
\* to the client.  If k is cached the switch notes s, and a valid record older
\* than s becomes invalid: a write numbered before k's admission (so never
\* staged) has reached the server, and its acknowledgement is this reply or
\* still to come through the switch.
SeeReply(k, s) ==
    /\ seen' = IF FillBySeen /\ cached[k] THEN [seen EXCEPT ![k] = Max(@, s)] ELSE seen
    /\ valid' = IF FillBySeen /\ ~BugSeenNoOutdate /\ cached[k] /\ valid[k] /\ s > rrec[k].s
               THEN [valid EXCEPT ![k] = FALSE] ELSE valid

\* Deliver m once (d = FALSE) or deliver a copy and keep m in flight (d = TRUE,
\* a duplicate).  Client-side receipt of a duplicate changes nothing (the
\* client ignores replies to operations it no longer waits for), but the
\* switch's handling of a duplicated reply can, so the reply steps take d too.
Rest(m, d)  == IF d THEN net ELSE net \ {m}
DupOK(d)    == d => nDup < MaxDup
CountDup(d) == nDup' = IF d THEN nDup + 1 ELSE nDup

OpMsgInFlight(c) ==
    \E m \in net : /\ m.t \notin {"probe", "probeR"}   \* client messages only (probes have no c)
                   /\ m.c = c /\ m.id = pend[c].id
                   /\ (m.t \in {"put", "putR"}) = (pend[c].t = "w")

-----------------------------------------------------------------------------
(* Client writes.  The switch numbers every write (assign_seq: PUT becomes   *)
(* PUT_SEQ with the key's next seq), cached or not, so that replies can be   *)
(* compared with seq_bound.                                                 *)

\* NC-4 (cached): invalidate, stage value and seq in the record, forward.
\* NC-6 (not cached): forward.  BugNoInvalidate treats a cached key like an
\* uncached one (the whole NC-4 branch is skipped).
ClientWrite(c, k) ==
    /\ pend[c] = NoOp /\ nW < MaxWrites
    /\ LET w == nW + 1
           s == ctr[k] + 1
       IN /\ nW' = w
          /\ ctr' = [ctr EXCEPT ![k] = s]
          /\ IF cached[k] /\ ~BugNoInvalidate
             THEN /\ valid' = [valid EXCEPT ![k] = FALSE]
                  /\ rrec' = [rrec EXCEPT ![k] = [v |-> w, s |-> s]]
             ELSE UNCHANGED <<valid, rrec>>
          \* the switch sees the write of a cached key it numbers (FillBySeen)
          /\ seen' = IF FillBySeen /\ cached[k] THEN [seen EXCEPT ![k] = Max(@, s)] ELSE seen
          /\ net' = net \cup {[t |-> "put", c |-> c, k |-> k, id |-> w, s |-> s]}
          /\ pend' = [pend EXCEPT ![c] = [t |-> "w", k |-> k, id |-> w, floor |-> 0]]
          /\ act' = [a |-> "ClientWrite", c |-> c, k |-> k, w |-> w, s |-> s, hit |-> cached[k]]
    /\ UNCHANGED <<cached, fillFloor, probing, store, nR, nLoss, nDup, nAdmit, nEvict, nCrash, ghostVars>>

(* Client reads.  A read records its floor: the newest write to the key     *)
(* acknowledged before the read began (history for ReadsNotStale).          *)

\* NC-1: cached and valid, the switch answers from the record.
ClientReadHit(c, k) ==
    /\ pend[c] = NoOp /\ nR < MaxReads
    /\ Hit(k)
    /\ nR' = nR + 1
    /\ lastRead' = [floor |-> doneMax[k], got |-> rrec[k].v]
    /\ act' = [a |-> "ClientReadHit", c |-> c, k |-> k, r |-> nR + 1, v |-> rrec[k].v]
    /\ UNCHANGED <<switchVars, probing, store, pend, net, nW, nLoss, nDup, nAdmit, nEvict, nCrash, doneMax, obs>>

\* NC-2: cached and invalid, forwarded as GET_FOR_CACHE (its reply may refill).
\* NC-3: not cached, forwarded as GET.
ClientReadForward(c, k) ==
    /\ pend[c] = NoOp /\ nR < MaxReads
    /\ ~Hit(k)
    /\ LET r == nR + 1
       IN /\ nR' = r
          /\ net' = net \cup {[t |-> "get", c |-> c, k |-> k, id |-> r, cons |-> cached[k]]}
          /\ pend' = [pend EXCEPT ![c] = [t |-> "r", k |-> k, id |-> r, floor |-> doneMax[k]]]
          /\ act' = [a |-> "ClientReadForward", c |-> c, k |-> k, r |-> r, cons |-> cached[k]]
    /\ UNCHANGED <<switchVars, probing, store, nW, nLoss, nDup, nAdmit, nEvict, nCrash, ghostVars>>

\* Timeout: nothing of the operation is in flight any more (a request or reply
\* was lost), so the client abandons it.  The write may or may not have happened.
ClientGiveUp(c) ==
    /\ pend[c] /= NoOp
    /\ ~OpMsgInFlight(c)
    /\ pend' = [pend EXCEPT ![c] = NoOp]
    /\ act' = [a |-> "ClientGiveUp", c |-> c]
    /\ UNCHANGED <<switchVars, probing, store, net, cntVars, ghostVars>>

\* A reply completes the client's operation if the client still waits for it.
Complete(m, isWrite) ==
    IF pend[m.c].t = (IF isWrite THEN "w" ELSE "r") /\ pend[m.c].id = m.id
    THEN /\ pend' = [pend EXCEPT ![m.c] = NoOp]
         /\ obs' = IF FillBySeen THEN [obs EXCEPT ![m.k] = Max(@, IF isWrite THEN m.s ELSE m.rec.s)]
                   ELSE obs
         /\ IF isWrite
            THEN /\ doneMax' = [doneMax EXCEPT ![m.k] = Max(@, m.id)]
                 /\ UNCHANGED lastRead
            ELSE /\ lastRead' = [floor |-> pend[m.c].floor, got |-> m.rec.v]
                 /\ UNCHANGED doneMax
    ELSE UNCHANGED <<pend, doneMax, obs, lastRead>>

-----------------------------------------------------------------------------
(* Servers (StorageServer): a numbered record replaces the stored one only  *)
(* if its seq is higher (RecordStore.Ordering.BY_SEQUENCE); with            *)
(* BugServerIgnoresSeq every PUT_SEQ overwrites.  The PUT_REPLY carries the *)
(* request's seq whether or not the record was applied.                    *)

Apply(cur, r) == IF BugServerIgnoresSeq \/ r.s > cur.s THEN r ELSE cur

ServerPut(m, d) ==
    /\ m \in net /\ m.t = "put" /\ DupOK(d)
    /\ store' = [store EXCEPT ![m.k] = Apply(@, [v |-> m.id, s |-> m.s])]
    /\ net' = Rest(m, d) \cup {[t |-> "putR", c |-> m.c, k |-> m.k, id |-> m.id, s |-> m.s]}
    /\ CountDup(d)
    /\ act' = [a |-> "ServerPut", c |-> m.c, k |-> m.k, w |-> m.id, s |-> m.s, dup |-> d]
    /\ UNCHANGED <<switchVars, probing, pend, nW, nR, nLoss, nAdmit, nEvict, nCrash, ghostVars>>

\* GET / GET_FOR_CACHE: reply with the stored record (and its seq).
ServerGet(m, d) ==
    /\ m \in net /\ m.t = "get" /\ DupOK(d)
    /\ net' = Rest(m, d) \cup {[t |-> IF m.cons THEN "getRC" ELSE "getR",
                                 c |-> m.c, k |-> m.k, id |-> m.id, rec |-> store[m.k]]}
    /\ CountDup(d)
    /\ act' = [a |-> "ServerGet", c |-> m.c, k |-> m.k, r |-> m.id, rec |-> store[m.k], dup |-> d]
    /\ UNCHANGED <<switchVars, probing, store, pend, nW, nR, nLoss, nAdmit, nEvict, nCrash, ghostVars>>

-----------------------------------------------------------------------------
(* Switch: server replies, relayed to the client in the same step; bounded *)
(* by RefreshBound (FillBySeen; with CounterGuard seq_bound = ctr[k]).      *)

\* NC-7: a PUT_REPLY commits the staged record if the key is cached and
\* invalid, the reply is for the staged write (seq = record_seq /= 0) and no
\* write was numbered after it (seq >= seq_bound).  With per-key counters and
\* admission resetting record_seq, "seq = record_seq" already implies the
\* bound (every write since the admission was staged, the last one last);
\* the bound is a second defence: it keeps a stale record_seq left by an
\* admission harmless (BugAdmitKeepsSeq + BugCommitUnguarded fails).
\* FillBySeen: the reply is seen first; a commit needs m.s >= seen, i.e. no
\* later write of k has passed, and m.s >= the fill floor (a stale staged
\* seq, BugAdmitKeepsSeq, is below the floor once a newer write is stored).
SwitchPutReply(m, d) ==
    /\ m \in net /\ m.t = "putR" /\ DupOK(d)
    /\ LET k == m.k
       IN /\ seen' = IF FillBySeen /\ cached[k] THEN [seen EXCEPT ![k] = Max(@, m.s)] ELSE seen
          /\ IF /\ cached[k] /\ ~valid[k] /\ rrec[k].s /= 0 /\ m.s = rrec[k].s
                /\ (BugCommitUnguarded \/ m.s >= RefreshBound(k))
             THEN valid' = [valid EXCEPT ![k] = TRUE]
             ELSE IF FillBySeen /\ ~BugSeenNoOutdate /\ cached[k] /\ valid[k] /\ m.s > rrec[k].s
             THEN valid' = [valid EXCEPT ![k] = FALSE]
             ELSE UNCHANGED valid
    /\ net' = Rest(m, d)
    /\ CountDup(d)
    /\ Complete(m, TRUE)
    /\ act' = [a |-> "SwitchPutReply", c |-> m.c, k |-> m.k, w |-> m.id, s |-> m.s, dup |-> d]
    /\ UNCHANGED <<cached, rrec, ctr, fillFloor, probing, store, nW, nR, nLoss, nAdmit, nEvict, nCrash>>

\* NC-8: a GET_FOR_CACHE_REPLY refills an invalid cached record if no write
\* was numbered after the record it carries (seq >= seq_bound); otherwise
\* (NC-9) the cache is unchanged.  Either way the client gets GET_REPLY.
\* BugRefillUnguarded drops the seq_bound test.
\* FillBySeen: the reply is seen first (m.rec.s >= seen' iff m.rec.s >= seen).
SwitchGetReply(m, d) ==
    /\ m \in net /\ m.t = "getRC" /\ DupOK(d)
    /\ LET k == m.k
       IN /\ seen' = IF FillBySeen /\ cached[k] THEN [seen EXCEPT ![k] = Max(@, m.rec.s)] ELSE seen
          /\ IF cached[k] /\ ~valid[k] /\ (BugRefillUnguarded \/ m.rec.s >= RefreshBound(k))
             THEN /\ rrec' = [rrec EXCEPT ![k] = m.rec]
                  /\ valid' = [valid EXCEPT ![k] = TRUE]
             ELSE /\ valid' = IF FillBySeen /\ ~BugSeenNoOutdate /\ cached[k] /\ valid[k]
                                  /\ m.rec.s > rrec[k].s
                               THEN [valid EXCEPT ![k] = FALSE] ELSE valid
                  /\ UNCHANGED rrec
    /\ net' = Rest(m, d)
    /\ CountDup(d)
    /\ Complete(m, FALSE)
    /\ act' = [a |-> "SwitchGetReply", c |-> m.c, k |-> m.k, r |-> m.id, rec |-> m.rec, dup |-> d]
    /\ UNCHANGED <<cached, ctr, fillFloor, probing, store, nW, nR, nLoss, nAdmit, nEvict, nCrash>>

\* NC-10: a plain GET_REPLY is relayed unchanged.  (A duplicate reaching the
\* client changes nothing, so no d.)  With FillBySeen the switch sees it on
\* the way: the GET was sent while k was uncached, and k may be cached now.
ClientGetReply(m) ==
    /\ m \in net /\ m.t = "getR"
    /\ net' = net \ {m}
    /\ SeeReply(m.k, m.rec.s)
    /\ Complete(m, FALSE)
    /\ act' = [a |-> "ClientGetReply", c |-> m.c, k |-> m.k, r |-> m.id, v |-> m.rec.v]
    /\ UNCHANGED <<cached, rrec, ctr, fillFloor, probing, store, cntVars>>

-----------------------------------------------------------------------------
(* Controller (NetCacheController).  One procedure at a time, each atomic  *)
(* with respect to the key: Admit writes the slot's registers before it    *)
(* inserts the cache_lookup entry, so no packet of the key sees the slot   *)
(* half set up; Removal deletes the entry before it clears record_valid.   *)
(* Hence "at most one management operation per key" holds by construction. *)

\* FillBySeen: the controller learns the fill floor by probing the key's
\* server after the key's lookup entry is installed (SEQ_PROBE, tagged with
\* the admission's number): the server's record then is at least its record
\* at the install, and every write numbered after the install passes the
\* switch and raises seen[k].  Until the reply returns the floor is unknown
\* and no reply makes the record valid.  The admission is one procedure of
\* the controller: no other starts before its floor is written (Idle).
\* BugSeenNoFloor admits without a probe, leaving the floor as it was.
Probes == FillBySeen /\ ~BugSeenNoFloor
ProbeOf(k, a) == IF Probes THEN {[t |-> "probe", k |-> k, a |-> a]} ELSE {}
Idle == \A j \in Key : probing[j] = 0

\* Admission (Admit): record_valid := 0, record_seq := 0 (nothing staged; the
\* value registers keep whatever they held), with FillBySeen seen := 0 and
\* the floor unknown, then the lookup entry and the probe.  The next GET
\* (NC-2) fetches the server's value and NC-8 validates it.
Admit(k) ==
    /\ Idle /\ ~cached[k] /\ NCached < CacheSize /\ nAdmit < MaxAdmit
    /\ nAdmit' = nAdmit + 1
    /\ cached' = [cached EXCEPT ![k] = TRUE]
    /\ valid' = [valid EXCEPT ![k] = FALSE]
    /\ rrec' = IF BugAdmitKeepsSeq THEN rrec ELSE [rrec EXCEPT ![k].s = 0]
    /\ seen' = IF FillBySeen THEN [seen EXCEPT ![k] = 0] ELSE seen
    /\ fillFloor' = IF Probes THEN [fillFloor EXCEPT ![k] = FloorUnknown] ELSE fillFloor
    /\ probing' = IF Probes THEN [probing EXCEPT ![k] = nAdmit + 1] ELSE probing
    /\ net' = net \cup ProbeOf(k, nAdmit + 1)
    /\ act' = [a |-> "Admit", k |-> k]
    /\ UNCHANGED <<ctr, store, pend, nW, nR, nLoss, nDup, nEvict, nCrash, ghostVars>>

\* The server answers a probe with the seq of the record it holds.
ServerProbe(m, d) ==
    /\ m \in net /\ m.t = "probe" /\ DupOK(d)
    /\ net' = Rest(m, d) \cup {[t |-> "probeR", k |-> m.k, a |-> m.a, s |-> store[m.k].s]}
    /\ CountDup(d)
    /\ act' = [a |-> "ServerProbe", k |-> m.k, adm |-> m.a, s |-> store[m.k].s, dup |-> d]
    /\ UNCHANGED <<switchVars, probing, store, pend, nW, nR, nLoss, nAdmit, nEvict, nCrash, ghostVars>>

\* The reply to the probe of k's admission in progress sets k's fill floor.  A
\* reply to an earlier admission's probe (late or duplicated) does not: that
\* server record may predate this admission's install (BugProbeAnyAdmission).
ProbeMatches(m) == probing[m.k] /= 0 /\ (BugProbeAnyAdmission \/ m.a = probing[m.k])

AdmitFloor(m, d) ==
    /\ m \in net /\ m.t = "probeR" /\ DupOK(d)
    /\ ProbeMatches(m)
    /\ net' = Rest(m, d)
    /\ CountDup(d)
    /\ fillFloor' = [fillFloor EXCEPT ![m.k] = m.s]
    /\ probing' = [probing EXCEPT ![m.k] = 0]
    /\ act' = [a |-> "AdmitFloor", k |-> m.k, adm |-> m.a, s |-> m.s, dup |-> d]
    /\ UNCHANGED <<cached, valid, rrec, ctr, seen, store, pend, nW, nR, nLoss, nAdmit, nEvict, nCrash, ghostVars>>

\* A probe reply the controller no longer waits for is dropped.
DiscardProbeReply(m) ==
    /\ m \in net /\ m.t = "probeR"
    /\ ~ProbeMatches(m)
    /\ net' = net \ {m}
    /\ act' = [a |-> "DiscardProbeReply", k |-> m.k, adm |-> m.a, s |-> m.s]
    /\ UNCHANGED <<switchVars, probing, store, pend, cntVars, ghostVars>>

\* The controller re-sends the probe when neither it nor its reply is in
\* flight any more (one was lost).
ProbeResend(k) ==
    /\ probing[k] /= 0
    /\ ~\E m \in net : m.t \in {"probe", "probeR"} /\ m.k = k /\ m.a = probing[k]
    /\ net' = net \cup ProbeOf(k, probing[k])
    /\ act' = [a |-> "ProbeResend", k |-> k]
    /\ UNCHANGED <<switchVars, probing, store, pend, cntVars, ghostVars>>

\* Eviction (Removal): the server has every write, so nothing is stored on
\* the way out.  Any cached key may be the victim (the policy is abstracted).
Evict(k) ==
    /\ Idle /\ cached[k] /\ nEvict < MaxEvict
    /\ nEvict' = nEvict + 1
    /\ cached' = [cached EXCEPT ![k] = FALSE]
    /\ valid' = [valid EXCEPT ![k] = FALSE]
    /\ act' = [a |-> "Evict", k |-> k]
    /\ UNCHANGED <<rrec, ctr, seen, fillFloor, probing, store, pend, net, nW, nR, nLoss, nDup, nAdmit, nCrash, ghostVars>>

-----------------------------------------------------------------------------
(* Switch crash and restart (Rack.crashSwitch).  Every table and register is *)
(* lost; the controller finds a fresh switch and starts with an empty cache. *)
(* Servers keep their records.  Messages on the wires are kept: those inside *)
(* the switch being lost is covered by Lose.  Nothing is stored in the       *)
(* switch that the servers lack (write-through), so the cache itself loses   *)
(* nothing; the sequence counters are the problem: restarted at 0, the next  *)
(* write of a key gets a seq the server already holds, and the server, which *)
(* keeps only newer records, drops it while acknowledging it.                *)
\* With RestartSeqBase every counter starts at SeqCeiling + 1, strictly above
\* every seq assigned so far (SeqsBelowCeiling), as the implementation's
\* (g-1) * 2^24 base of the g-th incarnation is: so no record written before
\* the restart passes NC-8's seq >= seq_bound afterwards, and a key refills
\* only from a write numbered by the new switch.  (Starting at SeqCeiling
\* itself would let the newest old record, or the initial one when nothing was
\* written, refill: a behaviour the implementation never shows.)
SwitchRestart ==
    /\ nCrash < MaxSwitchCrash
    /\ nCrash' = nCrash + 1
    /\ cached' = [k \in Key |-> FALSE]
    /\ valid' = [k \in Key |-> FALSE]
    /\ rrec' = [k \in Key |-> Init0]
    /\ ctr' = [k \in Key |-> IF RestartSeqBase THEN SeqCeiling + 1 ELSE 0]
    /\ seen' = [k \in Key |-> 0]
    /\ fillFloor' = [k \in Key |-> 0]
    \* the controller abandons an admission in progress with the old switch
    /\ probing' = [k \in Key |-> 0]
    /\ act' = [a |-> "SwitchRestart"]
    /\ UNCHANGED <<store, pend, net, nW, nR, nLoss, nDup, nAdmit, nEvict, ghostVars>>

-----------------------------------------------------------------------------
(* Network faults *)

Lose(m) ==
    /\ m \in net /\ nLoss < MaxLoss
    /\ net' = net \ {m}
    /\ nLoss' = nLoss + 1
    /\ act' = [a |-> "Lose", m |-> m]
    /\ UNCHANGED <<switchVars, probing, store, pend, nW, nR, nDup, nAdmit, nEvict, nCrash, ghostVars>>

-----------------------------------------------------------------------------
Next ==
    \/ \E c \in Client, k \in Key :
          ClientWrite(c, k) \/ ClientReadHit(c, k) \/ ClientReadForward(c, k)
    \/ \E c \in Client : ClientGiveUp(c)
    \/ \E m \in net :
          \/ ClientGetReply(m) \/ DiscardProbeReply(m) \/ Lose(m)
          \/ \E d \in BOOLEAN : ServerPut(m, d) \/ ServerGet(m, d)
                                \/ SwitchPutReply(m, d) \/ SwitchGetReply(m, d)
                                \/ ServerProbe(m, d) \/ AdmitFloor(m, d)
    \/ \E k \in Key : Admit(k) \/ Evict(k) \/ ProbeResend(k)
    \/ SwitchRestart

Spec == Init /\ [][Next]_vars

-----------------------------------------------------------------------------
(* Properties *)

\* Linearizability surrogate (per key, over the recorded history): a read
\* never returns a value older than the newest write to that key that was
\* acknowledged before the read began.  (Values are write ids; for one key a
\* smaller id is an older write.)
ReadsNotStale == lastRead.got >= lastRead.floor

\* Write-through coherence: a record the switch would answer reads from is
\* exactly the record its server holds now.  (Stronger than "no older than
\* the server's": a valid record newer than the server's would be a value
\* no server has, lost if the write never arrives.)
\*
\* With FillBySeen a valid record may be older than its server's for a while:
\* a write numbered before the key's admission (never staged) may reach the
\* server after a refill, and the switch invalidates the record only when
\* that write's reply passes it.  What must hold then: the record is no newer
\* than the server's (and is the server's record if as new), and no older than
\* anything a client has learnt of the key from a server (obs).  Since every
\* server reply passes the switch, a client cannot see a newer value and then
\* a hit on an older one.
CacheCoherent ==
    \A k \in Key : Hit(k) =>
        IF FillBySeen
        THEN /\ rrec[k].s <= store[k].s
             /\ rrec[k].s = store[k].s => rrec[k] = store[k]
             /\ rrec[k].s >= obs[k]
        ELSE rrec[k] = store[k]

\* SeqCeiling bounds every seq anywhere (counters, staged and stored records,
\* messages), so a restart with RestartSeqBase starts the counters above all
\* of them.  A lemma for SwitchRestart's comment, checked with the models.
SeqsBelowCeiling ==
    /\ \A k \in Key : ctr[k] <= SeqCeiling /\ rrec[k].s <= SeqCeiling /\ store[k].s <= SeqCeiling
    /\ \A m \in net : m.t \in {"put", "putR"} => m.s <= SeqCeiling
    /\ \A m \in net : m.t \in {"getR", "getRC"} => m.rec.s <= SeqCeiling
    /\ \A k \in Key : seen[k] <= SeqCeiling
    /\ \A m \in net : m.t = "probeR" => m.s <= SeqCeiling

=============================================================================
