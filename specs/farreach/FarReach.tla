------------------------------ MODULE FarReach ------------------------------
(***************************************************************************)
(* FarReach: an in-switch write-back cache (Sheng et al., USENIX ATC '23, *)
(* "FarReach: Write-back Caching in Programmable Switches").              *)
(*                                                                         *)
(* Actors: clients, servers (keys partitioned by Owner), the switch (data  *)
(* plane cache with per-key validity / latest / to-be-evicted flags and    *)
(* per-key sequence counters) and the controller (admission, eviction,     *)
(* snapshots, recovery).  The network between them is a SET of in-flight  *)
(* messages: delivery in any order, loss (budget MaxLoss) and duplication  *)
(* (budget MaxDup, "deliver and keep").  No channel is assumed FIFO: see   *)
(* the note at SwitchGetReply for the one place where the paper's text    *)
(* would need ordering and the guard that removes that need.  The switch   *)
(* does every step of one packet atomically (the paper serialises a key's  *)
(* packets in the egress pipeline of its server, §3.2).                   *)
(*                                                                         *)
(* Modelling choices that keep the state space small, each sound for the  *)
(* properties checked (argued in docs/specs/farreach.md):                  *)
(*  - a client request is processed by the switch in the same step in     *)
(*    which the client sends it (a request delayed before the switch is    *)
(*    the same as a request sent later), and a reply the switch generates  *)
(*    itself reaches the client in that step;                              *)
(*  - server replies that the switch merely relays go straight to the      *)
(*    client; replies the switch acts on (GET_FOR_CACHE) go to the switch, *)
(*    which updates the cache and completes the client's read;             *)
(*  - write values are write ids 1..MaxWrites (0 = initial value).  Ids    *)
(*    are drawn in the order the switch serialises writes, so for one key  *)
(*    "older" is simply "smaller id".                                      *)
(*                                                                         *)
(* Bug flags turn on one known-wrong variant each; with all flags FALSE   *)
(* the spec is the protocol as we understand it from the paper.            *)
(***************************************************************************)
EXTENDS Integers, FiniteSets, TLC

CONSTANTS
    Client,          \* client identifiers
    Server,          \* server identifiers
    Key,             \* keys
    Owner,           \* Owner[k]: the server that stores key k (partitioning)
    CacheSize,       \* number of in-switch cache slots
    \* ---- bounds (all models are finite because of these) ----
    MaxWrites,       \* total client writes (also the largest value and sequence number)
    MaxReads,        \* total client reads
    MaxLoss,         \* messages the network may lose
    MaxDup,          \* messages the network may duplicate
    MaxAdmit,        \* cache admissions the controller may perform
    MaxEvict,        \* cache evictions the controller may start
    MaxSnap,         \* snapshots the controller may start
    MaxSwitchCrash,  \* switch crashes
    MaxClientCrash,  \* client crashes
    \* ---- channel assumption ----
    FifoSwitchServer,\* TRUE: each switch<->server link is FIFO in both directions (loss and
                     \*   duplication still allowed; a duplicate is delivered in place).  The
                     \*   protocol as specified does not need it; it exists to show that FIFO
                     \*   links alone do not make BugUnguardedLatest safe (A1/A7 in the doc).
    \* ---- bug flags: each TRUE flag replaces one protocol rule by a wrong one ----
    BugServerIgnoresSeq,         \* servers overwrite on every PUT_SEQ / EVICT_STORE / embedded read (§3.3)
    BugAdmitLatest,              \* admission marks the new record latest at once (§3.2)
    BugUnguardedLatest,          \* a GET_FOR_CACHE reply marks latest if its seq >= the cached seq
                                 \*   instead of >= the switch counter (the paper's rule (ii) states no
                                 \*   comparison; this is the natural one, and it is not enough)
    BugNoEmbedding,              \* reads of an outdated to-be-evicted record carry no embedded record (§3.3)
    BugEvictBeforeAck,           \* controller finishes an eviction without the server's acknowledgement (§3.3)
    BugAckWithoutSeq,            \* controller takes any EVICT_STORE_REPLY for the key as the acknowledgement
                                 \*   (a duplicated one from an earlier eviction finishes a later one)
    BugNoMgmtDedup,              \* controller may pick a key whose admission is in flight as eviction
                                 \*   victim, and re-admits reported keys that are already cached
    BugNoSnapshotOriginals,      \* switch sends no original record on the first update in a snapshot (§3.4)
    BugSnapshotLateAdmit,        \* snapshot includes records admitted after the snapshot point (§3.4)
    BugRecoveryIgnoresPreserved, \* recovery replays only the controller's snapshot (§3.4)
    BugRecoverLatest,            \* recovery marks the recovered cache records latest, not outdated (§3.4)
    BugRecoveryResetsCounter     \* recovery leaves the switch's sequence counters at zero (§3.4)

ASSUME Owner \in [Key -> Server]
ASSUME CacheSize \in Nat \ {0}
ASSUME \A n \in {MaxWrites, MaxReads, MaxLoss, MaxDup, MaxAdmit, MaxEvict, MaxSnap,
                 MaxSwitchCrash, MaxClientCrash} : n \in Nat
ASSUME FifoSwitchServer \in BOOLEAN
ASSUME \A b \in {BugServerIgnoresSeq, BugAdmitLatest, BugUnguardedLatest, BugNoEmbedding,
                 BugEvictBeforeAck, BugAckWithoutSeq, BugNoMgmtDedup, BugNoSnapshotOriginals, BugSnapshotLateAdmit,
                 BugRecoveryIgnoresPreserved, BugRecoverLatest, BugRecoveryResetsCounter} : b \in BOOLEAN

\* A bug flag added after the trace tools (tracecheck's TraceModel) fixed the
\* list of CONSTANTS: defined FALSE here so that existing .cfg files need not
\* name it; a buggy model overrides it in its .cfg (BugReplyBySlot <- BugOn).
\* TRUE: a GET_FOR_CACHE reply for a key that is no longer cached updates the
\* record now cached in its slot (the switch matches the reply by slot, not by
\* key); meaningful with one cache slot, where "its slot" is the only one.
BugReplyBySlot == FALSE

\* Write retries (farreach.p4 step 4), also defined here rather than declared
\* so that existing .cfg files need not name them.  MaxRetry: retransmissions
\* of an outstanding write that clients may send (ClientRetry); a retry model
\* overrides it (MaxRetry <- RetryBudget).  BugRetryRenumbers: the switch
\* numbers a retransmitted write afresh, as a new write, instead of giving it
\* its first copy's seq again (the bug tracecheck's trace validation seeds).
MaxRetry == 0
BugRetryRenumbers == FALSE
\* BugRetryAcrossCrash: a client retries a write that a switch which has
\* crashed since numbered (FarReachClient.mayRetryWrite forbids it); the
\* restarted switch, which has forgotten the first copy, numbers it afresh.
BugRetryAcrossCrash == FALSE

\* Server fencing at recovery (an innet extension; docs/specs/farreach.md,
\* "Recovery's sequence base and the server fence").  BugNoFence: recovery
\* does not fence the servers, as before 2026-11-24: every recovered record
\* then stays outdated until its key's next write (OutdatedResolved fails).
BugNoFence == FALSE
\* BugFenceBeforeReplay: recovery fences the servers before it replays the
\* preserved records, so the fence refuses them (NoLostWrites fails).
BugFenceBeforeReplay == FALSE

\* The latest guard farreach.p4 implements (since 2026-11-25; docs/specs/
\* farreach.md, "Filling by what the switch has seen").  The paper's switch
\* compares a reply with the key's own counter ctr[k]; farreach.p4 numbers
\* writes in counter slots shared by many keys, so it cannot, and with the
\* slot's counter a freshly admitted key may stay outdated for good.
\* FillBySeen: the switch instead keeps, per cached key, seen[k], the highest
\* seq of the key it has seen pass since admission (writes it numbers, and
\* every server reply of the key: GET_FOR_CACHE, GET, GET_EMBED and PUT
\* replies), and fillFloor[k], the key's server record's seq after it was
\* installed (the controller probes the server; recovery uses the fence).  A
\* GET_FOR_CACHE reply makes the record latest if its seq is at least both;
\* a reply of the key with a higher seq than a latest record's makes the
\* record outdated (a write numbered before the admission reached the
\* server).  Every value a client can observe passes the switch with its seq,
\* so no reply older than an observed one is ever accepted.  A model sets
\* FillBySeen <- CounterGuard to check the paper's per-key counter guard
\* (MCFarReachCounterGuard), which every model used before.
\* BugSeenNoFloor: admission leaves fillFloor at 0 (a reply from an earlier
\* caching period of the key can then be accepted).
\* BugProbeAnyAdmission: the controller takes a probe reply of an earlier
\* admission of the key as this admission's floor.
\* BugSeenNoOutdate: a newer reply leaves a latest record latest (a write in
\* flight from before the admission then hides behind the cached record).
FillBySeen == TRUE
CounterGuard == FALSE

\* CrashKeepsServerBound: a switch crash loses only what is on its way to or
\* through the switch; requests it had already sent towards a server
\* (PUT_SEQ, reads, EVICT_STORE) still arrive, during the outage or after the
\* recovery (the default, FALSE, loses them all: docs/specs/farreach.md).  A
\* late PUT_SEQ of the crashed switch is then refused by a fenced server.
\* BugFenceAcksOld: a fenced server acknowledges such a PUT_SEQ although it
\* does not store it (FencedRecordStore neither stores nor acknowledges it).
CrashKeepsServerBound == FALSE
BugFenceAcksOld == FALSE
BugSeenNoFloor == FALSE
BugSeenNoOutdate == FALSE
BugProbeAnyAdmission == FALSE

\* Hooks for the liveness models (FarReachLive.tla; docs/specs/farreach.md,
\* "Liveness").  Each is the protocol's rule as specified here; a liveness
\* model's .cfg may replace one (Hook <- Other) with a fairness-friendly
\* restriction or a buggy rule, leaving every other model unchanged.
\*   SnapWanted          - the controller may start a snapshot (any time)
\*   RecoverReady        - the controller may run recovery (any time it is down)
\*   EvictAcked(cur, r)  - the server acknowledges EVICT_STORE of r (always)
SnapWanted == TRUE
RecoverReady == TRUE
EvictAcked(cur, r) == TRUE

Val   == 0..MaxWrites                    \* 0 is every key's initial value
SeqNo == 0..(MaxWrites + MaxRetry + MaxSwitchCrash)
                                         \* one sequence number per write at most (a retry
                                         \* numbered afresh takes one more: BugRetryRenumbers),
                                         \* and each recovery skips one (IncarnationBase)
Rec   == [v : Val, s : SeqNo]            \* a record: value and switch-assigned sequence number
NoRec == [v |-> -1, s |-> -1]            \* "no record"; its s is below every real seq
Init0 == [v |-> 0, s |-> 0]              \* the record every server starts with
\* FillBySeen: the fill floor of a record whose probe has not returned yet,
\* above every seq (no reply can fill the record).
FloorUnknown == MaxWrites + MaxRetry + MaxSwitchCrash + 1

Max(a, b) == IF a >= b THEN a ELSE b

\* Client operation slots and history entries.
NoOp   == [t |-> "none", k |-> "none", id |-> 0, floor |-> 0]
NoRead == [floor |-> 0, got |-> 0]
NoKey  == "nokey"
NoBad  == [k |-> NoKey, floor |-> 0, ver |-> 0]
NoNum  == [w |-> 0, s |-> 0]

VARIABLES
    \* ---- switch (data plane registers, lost in a switch crash) ----
    up,        \* the switch is running
    crec,      \* crec[k]: cached record of k; NoRec when k is not in the cache's key table
    valid,     \* valid[k]: validity register (§3.2 atomic validity control)
    latest,    \* latest[k]: TRUE = "latest", FALSE = "outdated" (§3.2)
    tbe,       \* tbe[k]: "to-be-evicted" flag (§3.3)
    ctr,       \* ctr[k]: per-key sequence counter, incremented for every write (§3.3)
    snapOn,    \* snapshot generation in progress: the switch watches first updates (§3.4)
    snapSent,  \* snapSent[k]: original of k already sent (or k already loaded) in this snapshot
    lastNum,   \* lastNum[c]: write id and seq of client c's last write the switch numbered
               \* (farreach.p4's client_write_req_id / client_write_seq registers), NoNum if none
    seen,      \* seen[k]: highest seq of k seen at the switch since k's admission (FillBySeen)
    fillFloor, \* fillFloor[k]: k's server record's seq at its admission (FillBySeen)
    \* ---- servers (persistent) ----
    store,     \* store[k]: record of k at Owner[k]
    fence,     \* the seq every server was fenced at by the last recovery (0: never); a PUT_SEQ
               \* numbered below it is refused (FencedRecordStore)
    \* ---- controller ----
    admitting, \* admitting[k]: admission of k installed, validity not yet set (§3.2)
    probing,   \* probing[k]: the admission (its number) whose fill-floor probe of k's server the
               \* controller waits for, 0 if none (FillBySeen)
    evRec,     \* evRec[k]: record loaded for the eviction of k in flight, NoRec if none (§3.3)
    snapKeys,  \* keys cached (valid) at the current snapshot point (§3.4)
    snapOrig,  \* snapOrig[k]: original record received from the switch in this snapshot
    snapLoad,  \* snapLoad[k]: record loaded in phase 2 (or saved at eviction) in this snapshot
    snap,      \* latest completed snapshot: snap[k] record or NoRec; also what SNAPSHOT_DONE announces
    \* ---- clients ----
    pend,      \* pend[c]: the client's outstanding operation (NoOp if idle)
    pres,      \* pres[c][k]: record preserved by client c for key k (§3.4 record preservation)
    \* ---- network ----
    net,       \* set of messages in flight
    \* ---- counters and bounds ----
    nW,        \* writes issued (the next write id is nW+1)
    nR,        \* reads issued (the next read id is nR+1)
    nLoss,     \* messages lost so far
    nDup,      \* messages duplicated so far
    nAdmit,    \* admissions performed
    nEvict,    \* evictions started
    nSnap,     \* snapshots started
    nSwCrash,  \* switch crashes
    nClCrash,  \* client crashes
    nRetry,    \* write retransmissions sent so far (ClientRetry)
    nFs,       \* switch<->server messages sent so far (FIFO position; stays 0 without FifoSwitchServer)
    \* ---- history (ghost) variables, used only by invariants and traces ----
    doneMax,   \* doneMax[k]: largest id of a write to k acknowledged to its client
    lastRead,  \* the most recent completed read: floor = doneMax[key] when it began, value
               \* got (client and key are in `act`).  ReadsNotStale is checked in every
               \* state, so checking the latest read checks every read.
    pointCache,\* cache contents (valid records) at the current snapshot point
    snapTruth, \* pointCache of the snapshot that produced snap
    ackFloor,  \* doneMax at the latest switch crash
    \* ---- linearizability history (ghost): see Linearizable ----
    linMax,    \* linMax[k]: largest version (value) of any operation on k completed so far:
               \* the end of the linearization order built so far for k
    opFloor,   \* opFloor[c]: linMax[key] when c's pending operation was invoked
    wkey,      \* wkey[w]: the key write w was issued for (NoKey before it is issued)
    linBad,    \* NoBad, or the first completed operation that cannot be placed in the order
    act        \* the last action and its parameters (for traces; not part of the VIEW)

switchVars == <<up, crec, valid, latest, tbe, ctr, snapOn, snapSent, lastNum, seen, fillFloor>>
ctrlVars   == <<admitting, probing, evRec, snapKeys, snapOrig, snapLoad, snap>>
clientVars == <<pend, pres>>
cntVars    == <<nW, nR, nLoss, nDup, nAdmit, nEvict, nSnap, nSwCrash, nClCrash, nRetry, nFs>>
linVars    == <<linMax, opFloor, wkey, linBad>>
ghostVars  == <<doneMax, lastRead, pointCache, snapTruth, ackFloor, linVars>>
serverVars == <<store, fence>>
vars == <<switchVars, serverVars, ctrlVars, clientVars, net, cntVars, ghostVars, act>>
\* Everything but the action label: model files use this as the VIEW so that
\* `act` does not multiply the number of distinct states.
\* Without retries (MaxRetry = 0) no action reads lastNum, so states that
\* differ only in it have the same futures: it is left out of the view there.
\* Likewise the fence: without CrashKeepsServerBound no PUT_SEQ below it can
\* reach a server (a crash empties the network), so only then is it read.
viewVars == <<up, crec, valid, latest, tbe, ctr, snapOn, snapSent,
              IF MaxRetry > 0 THEN lastNum ELSE NoNum, seen, fillFloor,
              store, IF CrashKeepsServerBound THEN fence ELSE 0,
              ctrlVars, clientVars, net, cntVars, ghostVars>>

-----------------------------------------------------------------------------
(* Messages.  Fields: t = type (names follow docs/wire-format.md §3).       *)
(*  put      PUT_SEQ           switch -> server  c, k, id (= value), s        *)
(*  putR     PUT_REPLY         server -> client  c, k, id, s                  *)
(*  get      GET / GET_FOR_CACHE / GET_EMBED  switch -> server                *)
(*                                               c, k, id, emb, cons          *)
(*  getR     GET_REPLY         server -> client  c, k, id, rec               *)
(*  getRC    GET_FOR_CACHE_REPLY server -> switch c, k, id, rec              *)
(*  hot      HOT_REPORT        server -> controller k, rec                    *)
(*  evict    EVICT_STORE       controller -> server k, rec                    *)
(*  evictAck EVICT_STORE_REPLY server -> controller k, s                     *)
(*  probe    SEQ_PROBE         controller -> server k, a (admission number)   *)
(*  probeR   SEQ_PROBE_REPLY   server -> controller k, a, s (FillBySeen)      *)
(* SNAPSHOT_ORIGINAL (switch CPU port -> controller) is delivered reliably   *)
(* in the step that causes it; SNAPSHOT_DONE is the variable `snap`, read    *)
(* by clients whenever they like (so it may be late or never read);        *)
(* RECOVER_STORE is part of the atomic Recover step.                        *)
-----------------------------------------------------------------------------

FsMax == 2 * (MaxWrites + MaxReads)    \* each client operation: one request, one reply

Msg ==
         [t : {"put", "putR"}, c : Client, k : Key, id : 1..MaxWrites, s : SeqNo, fs : 0..FsMax]
    \cup [t : {"get"}, c : Client, k : Key, id : 1..MaxReads, emb : Rec \cup {NoRec}, cons : BOOLEAN,
          fs : 0..FsMax]
    \cup [t : {"getR", "getRC"}, c : Client, k : Key, id : 1..MaxReads, rec : Rec, fs : 0..FsMax]
    \cup [t : {"hot", "evict"}, k : Key, rec : Rec]
    \cup [t : {"evictAck"}, k : Key, s : SeqNo]
    \cup [t : {"probe"}, k : Key, a : 1..MaxAdmit]
    \cup [t : {"probeR"}, k : Key, a : 1..MaxAdmit, s : SeqNo]

OpT == [t : {"w", "r"}, k : Key, id : 0..Max(MaxWrites, MaxReads), floor : Val] \cup {NoOp}

TypeOK ==
    /\ up \in BOOLEAN
    /\ crec \in [Key -> Rec \cup {NoRec}]
    /\ valid \in [Key -> BOOLEAN]
    /\ latest \in [Key -> BOOLEAN]
    /\ tbe \in [Key -> BOOLEAN]
    /\ ctr \in [Key -> SeqNo]
    /\ seen \in [Key -> SeqNo]
    /\ fillFloor \in [Key -> SeqNo \cup {FloorUnknown}]
    /\ snapOn \in BOOLEAN
    /\ snapSent \in [Key -> BOOLEAN]
    /\ lastNum \in [Client -> [w : 0..MaxWrites, s : SeqNo]]
    /\ store \in [Key -> Rec]
    /\ fence \in SeqNo
    /\ admitting \in [Key -> BOOLEAN]
    /\ probing \in [Key -> 0..MaxAdmit]
    /\ evRec \in [Key -> Rec \cup {NoRec}]
    /\ snapKeys \subseteq Key
    /\ snapOrig \in [Key -> Rec \cup {NoRec}]
    /\ snapLoad \in [Key -> Rec \cup {NoRec}]
    /\ snap \in [Key -> Rec \cup {NoRec}]
    /\ pend \in [Client -> OpT]
    /\ pres \in [Client -> [Key -> Rec \cup {NoRec}]]
    /\ net \subseteq Msg
    /\ nW \in 0..MaxWrites /\ nR \in 0..MaxReads
    /\ nLoss \in 0..MaxLoss /\ nDup \in 0..MaxDup
    /\ nAdmit \in 0..MaxAdmit /\ nEvict \in 0..MaxEvict /\ nSnap \in 0..MaxSnap
    /\ nSwCrash \in 0..MaxSwitchCrash /\ nClCrash \in 0..MaxClientCrash
    /\ nRetry \in 0..MaxRetry
    /\ nFs \in 0..FsMax
    /\ doneMax \in [Key -> Val]
    /\ lastRead \in [floor : Val, got : Val]
    /\ pointCache \in [Key -> Rec \cup {NoRec}]
    /\ snapTruth \in [Key -> Rec \cup {NoRec}]
    /\ ackFloor \in [Key -> Val]
    /\ linMax \in [Key -> Val]
    /\ opFloor \in [Client -> Val]
    /\ wkey \in [1..MaxWrites -> Key \cup {NoKey}]
    /\ linBad \in [k : Key \cup {NoKey}, floor : Val, ver : Val]

-----------------------------------------------------------------------------
Init ==
    /\ up = TRUE
    /\ crec = [k \in Key |-> NoRec]
    /\ valid = [k \in Key |-> FALSE]
    /\ latest = [k \in Key |-> FALSE]
    /\ tbe = [k \in Key |-> FALSE]
    /\ ctr = [k \in Key |-> 0]
    /\ snapOn = FALSE
    /\ snapSent = [k \in Key |-> FALSE]
    /\ lastNum = [c \in Client |-> NoNum]
    /\ seen = [k \in Key |-> 0]
    /\ fillFloor = [k \in Key |-> 0]
    /\ store = [k \in Key |-> Init0]
    /\ fence = 0
    /\ admitting = [k \in Key |-> FALSE]
    /\ probing = [k \in Key |-> 0]
    /\ evRec = [k \in Key |-> NoRec]
    /\ snapKeys = {}
    /\ snapOrig = [k \in Key |-> NoRec]
    /\ snapLoad = [k \in Key |-> NoRec]
    /\ snap = [k \in Key |-> NoRec]
    /\ pend = [c \in Client |-> NoOp]
    /\ pres = [c \in Client |-> [k \in Key |-> NoRec]]
    /\ net = {}
    /\ nW = 0 /\ nR = 0 /\ nLoss = 0 /\ nDup = 0
    /\ nAdmit = 0 /\ nEvict = 0 /\ nSnap = 0 /\ nSwCrash = 0 /\ nClCrash = 0 /\ nRetry = 0 /\ nFs = 0
    /\ doneMax = [k \in Key |-> 0]
    /\ lastRead = NoRead
    /\ pointCache = [k \in Key |-> NoRec]
    /\ snapTruth = [k \in Key |-> NoRec]
    /\ ackFloor = [k \in Key |-> 0]
    /\ linMax = [k \in Key |-> 0]
    /\ opFloor = [c \in Client |-> 0]
    /\ wkey = [w \in 1..MaxWrites |-> NoKey]
    /\ linBad = NoBad
    /\ act = [a |-> "Init"]

-----------------------------------------------------------------------------
(* Helpers *)

InCache(k) == crec[k] /= NoRec          \* key present in the ingress key table
Hit(k)     == InCache(k) /\ valid[k]    \* cache hit: key cached AND validity register valid (§3.2)
NCached    == Cardinality({k \in Key : InCache(k)})

\* Deliver m once (d = FALSE) or deliver a copy and keep m in flight (d = TRUE, a duplicate).
\* Every receive action takes d, except the client's (clients ignore replies to
\* operations they no longer wait for, so a duplicate reply changes nothing) and
\* the controller's discards.
Rest(m, d) == IF d THEN net ELSE net \ {m}
DupOK(d)   == d => nDup < MaxDup
CountDup(d) == nDup' = IF d THEN nDup + 1 ELSE nDup

\* §3.4: before a cached record is overwritten during snapshot generation, the
\* switch sends the original record to the controller once per key (clone to the
\* CPU port; modelled as reliable).  The controller keeps it only for keys in the
\* snapshot whose record it has neither loaded nor saved at an eviction, and only
\* the first one (a key evicted and re-admitted during the snapshot must not
\* replace the point-in-time record).
SendOriginal(k) ==
    IF snapOn /\ ~snapSent[k] /\ ~BugNoSnapshotOriginals
    THEN /\ snapSent' = [snapSent EXCEPT ![k] = TRUE]
         /\ snapOrig' = IF k \in snapKeys /\ snapLoad[k] = NoRec /\ snapOrig[k] = NoRec
                        THEN [snapOrig EXCEPT ![k] = crec[k]]
                        ELSE snapOrig
    ELSE UNCHANGED <<snapSent, snapOrig>>

\* FIFO position of the next switch<->server message, and whether m is at the
\* head of its link (no earlier message on the same link and direction is in
\* flight).  Without FifoSwitchServer every position is 0 and every message is
\* at the head.
NextFs == IF FifoSwitchServer THEN nFs + 1 ELSE 0
SentFs == nFs' = NextFs
ToServer   == {"put", "get"}
FromServer == {"putR", "getR", "getRC"}
AtHead(m) ==
    LET dir == IF m.t \in ToServer THEN ToServer ELSE FromServer
    IN ~\E m2 \in net : m2.t \in dir /\ Owner[m2.k] = Owner[m.k] /\ m2.fs < m.fs

OpMsgInFlight(c) ==
    \E m \in net : /\ m.t \in {"put", "putR", "get", "getR", "getRC"}
                   /\ m.c = c /\ m.id = pend[c].id
                   /\ (m.t \in {"put", "putR"}) = (pend[c].t = "w")

\* Linearizability history (see Linearizable).  Invoke(k): the pending
\* operation's floor is the end of k's order so far.  Complete(k, ver, w, fl):
\* an operation on k with version ver (a write's id, a read's returned value),
\* invoked with floor fl, completes; it must go after the floor (strictly for a
\* write), and a read's value must be 0 or a write issued for k.
Invoke(c, k) == opFloor' = [opFloor EXCEPT ![c] = linMax[k]]
\* A finished or abandoned operation's floor is reset, so that it does not
\* split states.
Retire(c) == opFloor' = [opFloor EXCEPT ![c] = 0]
Complete(k, ver, isWrite, fl) ==
    LET placed == IF isWrite THEN ver > fl ELSE ver >= fl
        origin == isWrite \/ ver = 0 \/ wkey[ver] = k
    IN /\ linMax' = [linMax EXCEPT ![k] = Max(@, ver)]
       /\ linBad' = IF linBad = NoBad /\ ~(placed /\ origin)
                    THEN [k |-> k, floor |-> fl, ver |-> ver] ELSE linBad

-----------------------------------------------------------------------------
(* Client writes.  The switch assigns the next sequence number of the key    *)
(* to every write it sees (§3.3 "Identifying latest records").               *)

\* FillBySeen: the switch sees seq s of cached key k pass.
SeeSeq(k, s) ==
    seen' = IF FillBySeen /\ InCache(k) THEN [seen EXCEPT ![k] = Max(@, s)] ELSE seen

\* FillBySeen: a server's reply carrying seq s of key k passes the switch on
\* its way to the client; a latest record older than it becomes outdated.
SeeReply(k, s) ==
    /\ SeeSeq(k, s)
    /\ latest' = IF FillBySeen /\ ~BugSeenNoOutdate /\ InCache(k) /\ latest[k] /\ s > crec[k].s
                 THEN [latest EXCEPT ![k] = FALSE] ELSE latest

\* The switch's effects of a write w numbered s that a valid cached record of
\* k, not to-be-evicted, absorbs (§3.2/§3.3 write-back): the cache is updated
\* and marked latest (rule (i) of §3.2), the switch answers, and the client
\* preserves the record with its seq (§3.4).  Shared by a write's first copy
\* and a retransmission.
AbsorbWrite(c, k, w, s) ==
    /\ SeeSeq(k, s)
    /\ SendOriginal(k)
    /\ crec' = [crec EXCEPT ![k] = [v |-> w, s |-> s]]
    /\ latest' = [latest EXCEPT ![k] = TRUE]
    /\ doneMax' = [doneMax EXCEPT ![k] = Max(@, w)]
    /\ pres' = [pres EXCEPT ![c][k] = [v |-> w, s |-> s]]

\* The switch's effects of a write w numbered s that it forwards to the server
\* as PUT_SEQ; a to-be-evicted record is marked outdated (§3.3) unless the
\* write is a stale copy (relayed only, farreach.p4 FR-16).
ForwardWrite(c, k, w, s, stale) ==
    /\ SeeSeq(k, s)
    /\ latest' = IF tbe[k] /\ ~stale THEN [latest EXCEPT ![k] = FALSE] ELSE latest
    /\ net' = net \cup {[t |-> "put", c |-> c, k |-> k, id |-> w, s |-> s, fs |-> NextFs]}
    /\ SentFs

\* The switch remembers the last write of each client it numbered
\* (farreach.p4 step 4), so that a copy of it gets the same seq (ClientRetry).
Numbered(c, w, s) == lastNum' = IF MaxRetry > 0 THEN [lastNum EXCEPT ![c] = [w |-> w, s |-> s]] ELSE lastNum

\* A write's first copy absorbed by the cache: the switch numbers it with the
\* key's next seq and answers it in the same step.
ClientWriteHit(c, k) ==
    /\ up /\ pend[c] = NoOp /\ nW < MaxWrites
    /\ Hit(k) /\ ~tbe[k]
    /\ LET w == nW + 1
           s == ctr[k] + 1
       IN /\ nW' = w
          /\ ctr' = [ctr EXCEPT ![k] = s]
          /\ Numbered(c, w, s)
          /\ AbsorbWrite(c, k, w, s)
          /\ wkey' = [wkey EXCEPT ![w] = k]
          /\ Complete(k, w, TRUE, linMax[k])
          /\ act' = [a |-> "ClientWriteHit", c |-> c, k |-> k, w |-> w, s |-> s]
    /\ UNCHANGED <<up, valid, tbe, snapOn, fillFloor, serverVars, admitting, probing, evRec, snapKeys, snapLoad, snap,
                   pend, net, nR, nLoss, nDup, nAdmit, nEvict, nSnap, nSwCrash, nClCrash, nRetry, nFs,
                   lastRead, pointCache, snapTruth, ackFloor, opFloor>>

\* §3.2 non-blocking admission (3) and §3.3 eviction: a write to an uncached
\* key, to a key whose admission is not yet valid, or to a to-be-evicted record
\* is forwarded to the server as PUT_SEQ.
ClientWriteForward(c, k) ==
    /\ up /\ pend[c] = NoOp /\ nW < MaxWrites
    /\ ~(Hit(k) /\ ~tbe[k])
    /\ LET w == nW + 1
           s == ctr[k] + 1
       IN /\ nW' = w
          /\ ctr' = [ctr EXCEPT ![k] = s]
          /\ Numbered(c, w, s)
          /\ ForwardWrite(c, k, w, s, FALSE)
          /\ pend' = [pend EXCEPT ![c] = [t |-> "w", k |-> k, id |-> w, floor |-> 0]]
          /\ wkey' = [wkey EXCEPT ![w] = k]
          /\ Invoke(c, k)
          /\ act' = [a |-> "ClientWriteForward", c |-> c, k |-> k, w |-> w, s |-> s]
    /\ UNCHANGED <<up, crec, valid, tbe, snapOn, snapSent, fillFloor, serverVars, ctrlVars, pres,
                   nR, nLoss, nDup, nAdmit, nEvict, nSnap, nSwCrash, nClCrash, nRetry,
                   doneMax, lastRead, pointCache, snapTruth, ackFloor, linMax, linBad>>

\* A client whose write is outstanding times out and sends it again (the
\* implementation's client retries a write with the same request id).  The
\* original or its reply may be lost or merely late: a retry may race its
\* first copy.  The switch (farreach.p4 step 4) recognises a copy of the
\* client's last numbered write and gives it that write's seq s again.  If no
\* write of the key was numbered since (s is the key's counter), the copy is
\* processed as the write itself: absorbed by a valid cached record that is
\* not to-be-evicted (the switch answers: the write completes here), else
\* forwarded.  If another write was numbered since, the copy is stale: only
\* relayed to the server, which keeps its record unless s is higher, so the
\* write is applied at most once and never over a newer one.  A write the
\* switch never numbered (dropped while it was down), or numbered by a switch
\* that has crashed since, is not retried: the implementation's client gives
\* such a write up (FarReachClient.mayRetryWrite; a copy numbered afresh could
\* overwrite a newer write).  BugRetryRenumbers numbers every copy afresh.
ClientRetry(c) ==
    /\ up /\ pend[c].t = "w" /\ nRetry < MaxRetry
    /\ \/ lastNum[c].w = pend[c].id
       \/ BugRetryAcrossCrash /\ lastNum[c] = NoNum /\ nSwCrash > 0
    /\ LET w == pend[c].id
           k == pend[c].k
           s == IF BugRetryRenumbers \/ lastNum[c].w /= w THEN ctr[k] + 1 ELSE lastNum[c].s
           stale == s < ctr[k]
           absorbed == ~stale /\ Hit(k) /\ ~tbe[k]
       IN /\ nRetry' = nRetry + 1
          /\ ctr' = [ctr EXCEPT ![k] = Max(@, s)]
          /\ Numbered(c, w, s)
          /\ IF absorbed
             THEN /\ AbsorbWrite(c, k, w, s)
                  /\ pend' = [pend EXCEPT ![c] = NoOp]
                  /\ Complete(k, w, TRUE, opFloor[c])
                  /\ Retire(c)
                  /\ UNCHANGED <<net, nFs>>
             ELSE /\ ForwardWrite(c, k, w, s, stale)
                  /\ UNCHANGED <<crec, snapSent, snapOrig, pend, pres, doneMax, linVars>>
          /\ act' = [a |-> "ClientRetry", c |-> c, k |-> k, w |-> w, s |-> s, hit |-> absorbed]
    /\ UNCHANGED <<up, valid, tbe, snapOn, fillFloor, serverVars, admitting, probing, evRec, snapKeys, snapLoad, snap,
                   nW, nR, nLoss, nDup, nAdmit, nEvict, nSnap, nSwCrash, nClCrash,
                   lastRead, pointCache, snapTruth, ackFloor, wkey>>

\* A request sent while the switch is down is dropped; the client will time out.
ClientWriteDropped(c, k) ==
    /\ ~up /\ pend[c] = NoOp /\ nW < MaxWrites
    /\ nW' = nW + 1
    /\ pend' = [pend EXCEPT ![c] = [t |-> "w", k |-> k, id |-> nW + 1, floor |-> 0]]
    /\ wkey' = [wkey EXCEPT ![nW + 1] = k]
    /\ Invoke(c, k)
    /\ act' = [a |-> "ClientWriteDropped", c |-> c, k |-> k, w |-> nW + 1]
    /\ UNCHANGED <<switchVars, serverVars, ctrlVars, pres, net,
                   nR, nLoss, nDup, nAdmit, nEvict, nSnap, nSwCrash, nClCrash, nRetry, nFs,
                   doneMax, lastRead, pointCache, snapTruth, ackFloor, linMax, linBad>>

(* Client reads.  A read records its floor: the newest write to the key     *)
(* acknowledged before the read began (history for ReadsNotStale).         *)

\* §3.2/§3.3: a read of a valid, latest record (to-be-evicted or not) is
\* answered by the switch.
ClientReadHit(c, k) ==
    /\ up /\ pend[c] = NoOp /\ nR < MaxReads
    /\ Hit(k) /\ latest[k]
    /\ nR' = nR + 1
    /\ lastRead' = [floor |-> doneMax[k], got |-> crec[k].v]
    /\ Complete(k, crec[k].v, FALSE, linMax[k])
    /\ act' = [a |-> "ClientReadHit", c |-> c, k |-> k, r |-> nR + 1, v |-> crec[k].v]
    /\ UNCHANGED <<switchVars, serverVars, ctrlVars, clientVars, net,
                   nW, nLoss, nDup, nAdmit, nEvict, nSnap, nSwCrash, nClCrash, nRetry, nFs,
                   doneMax, pointCache, snapTruth, ackFloor, opFloor, wkey>>

\* §3.2 conservative read (valid but outdated, not to-be-evicted: GET_FOR_CACHE),
\* §3.3 record embedding (outdated and to-be-evicted: GET_EMBED carries the
\* cached record), or a plain GET for a cache miss.
ClientReadForward(c, k) ==
    /\ up /\ pend[c] = NoOp /\ nR < MaxReads
    /\ ~(Hit(k) /\ latest[k])
    /\ LET r    == nR + 1
           cons == Hit(k) /\ ~tbe[k]
           emb  == IF Hit(k) /\ tbe[k] /\ ~BugNoEmbedding THEN crec[k] ELSE NoRec
       IN /\ nR' = r
          /\ net' = net \cup {[t |-> "get", c |-> c, k |-> k, id |-> r, emb |-> emb, cons |-> cons,
                               fs |-> NextFs]}
          /\ SentFs
          /\ pend' = [pend EXCEPT ![c] = [t |-> "r", k |-> k, id |-> r, floor |-> doneMax[k]]]
          /\ Invoke(c, k)
          /\ act' = [a |-> "ClientReadForward", c |-> c, k |-> k, r |-> r, cons |-> cons, emb |-> emb]
    /\ UNCHANGED <<switchVars, serverVars, ctrlVars, pres,
                   nW, nLoss, nDup, nAdmit, nEvict, nSnap, nSwCrash, nClCrash, nRetry,
                   doneMax, lastRead, pointCache, snapTruth, ackFloor, linMax, wkey, linBad>>

ClientReadDropped(c, k) ==
    /\ ~up /\ pend[c] = NoOp /\ nR < MaxReads
    /\ nR' = nR + 1
    /\ pend' = [pend EXCEPT ![c] = [t |-> "r", k |-> k, id |-> nR + 1, floor |-> doneMax[k]]]
    /\ Invoke(c, k)
    /\ act' = [a |-> "ClientReadDropped", c |-> c, k |-> k, r |-> nR + 1]
    /\ UNCHANGED <<switchVars, serverVars, ctrlVars, pres, net,
                   nW, nLoss, nDup, nAdmit, nEvict, nSnap, nSwCrash, nClCrash, nRetry, nFs,
                   doneMax, lastRead, pointCache, snapTruth, ackFloor, linMax, wkey, linBad>>

\* The client receives its write's PUT_REPLY (relayed by the switch unchanged;
\* with FillBySeen the switch notes its seq on the way, SeeReply).
\* Replies for operations the client no longer waits for are discarded.
ClientPutReply(m) ==
    /\ m \in net /\ m.t = "putR" /\ AtHead(m)
    /\ CrashKeepsServerBound => up     \* a reply reaches its client through the switch
    /\ net' = net \ {m}
    /\ IF pend[m.c].t = "w" /\ pend[m.c].id = m.id
       THEN /\ pend' = [pend EXCEPT ![m.c] = NoOp]
            /\ doneMax' = [doneMax EXCEPT ![m.k] = Max(@, m.id)]
            /\ Complete(m.k, m.id, TRUE, opFloor[m.c])
            /\ Retire(m.c)
       ELSE UNCHANGED <<pend, doneMax, linMax, linBad, opFloor>>
    /\ SeeReply(m.k, m.s)
    /\ act' = [a |-> "ClientPutReply", c |-> m.c, k |-> m.k, w |-> m.id, s |-> m.s]
    /\ UNCHANGED <<up, crec, valid, tbe, ctr, snapOn, snapSent, lastNum, fillFloor, serverVars, ctrlVars, pres, cntVars,
                   lastRead, pointCache, snapTruth, ackFloor, wkey>>

\* The client receives a GET reply relayed by the switch.
ClientGetReply(m) ==
    /\ m \in net /\ m.t = "getR" /\ AtHead(m)
    /\ CrashKeepsServerBound => up
    /\ net' = net \ {m}
    /\ IF pend[m.c].t = "r" /\ pend[m.c].id = m.id
       THEN /\ pend' = [pend EXCEPT ![m.c] = NoOp]
            /\ lastRead' = [floor |-> pend[m.c].floor, got |-> m.rec.v]
            /\ Complete(m.k, m.rec.v, FALSE, opFloor[m.c])
            /\ Retire(m.c)
       ELSE UNCHANGED <<pend, lastRead, linMax, linBad, opFloor>>
    /\ SeeReply(m.k, m.rec.s)
    /\ act' = [a |-> "ClientGetReply", c |-> m.c, k |-> m.k, r |-> m.id, v |-> m.rec.v]
    /\ UNCHANGED <<up, crec, valid, tbe, ctr, snapOn, snapSent, lastNum, fillFloor, serverVars, ctrlVars, pres, cntVars,
                   doneMax, pointCache, snapTruth, ackFloor, wkey>>

\* Timeout: the request or its reply was lost (nothing of it is in flight), so
\* the client abandons the operation.  The write may or may not have happened.
ClientGiveUp(c) ==
    /\ pend[c] /= NoOp
    /\ ~OpMsgInFlight(c)
    /\ pend' = [pend EXCEPT ![c] = NoOp]
    /\ Retire(c)
    /\ act' = [a |-> "ClientGiveUp", c |-> c]
    /\ UNCHANGED <<switchVars, serverVars, ctrlVars, pres, net, cntVars,
                   doneMax, lastRead, pointCache, snapTruth, ackFloor, linMax, wkey, linBad>>

\* §3.4 "Client crashes": a client loses its pending operation and its
\* preserved records, then restarts.  (Old replies carry ids it ignores.)
ClientCrash(c) ==
    /\ nClCrash < MaxClientCrash
    /\ nClCrash' = nClCrash + 1
    /\ pend' = [pend EXCEPT ![c] = NoOp]
    /\ pres' = [pres EXCEPT ![c] = [k \in Key |-> NoRec]]
    /\ Retire(c)
    /\ act' = [a |-> "ClientCrash", c |-> c]
    /\ UNCHANGED <<switchVars, serverVars, ctrlVars, net,
                   nW, nR, nLoss, nDup, nAdmit, nEvict, nSnap, nSwCrash, nRetry, nFs,
                   doneMax, lastRead, pointCache, snapTruth, ackFloor, linMax, wkey, linBad>>

-----------------------------------------------------------------------------
(* Servers.  A server applies a record only if its seq is higher than the   *)
(* stored one (§3.3); with BugServerIgnoresSeq it always overwrites.         *)

Apply(cur, r) == IF BugServerIgnoresSeq \/ r.s > cur.s THEN r ELSE cur

\* PUT_SEQ: store if newer, reply to the client.  A fenced server refuses a
\* PUT_SEQ numbered below its fence (a crashed switch's, CrashKeepsServerBound):
\* it neither stores nor acknowledges it.
ServerPut(m, d) ==
    /\ m \in net /\ m.t = "put" /\ DupOK(d)
    /\ AtHead(m)
    /\ IF m.s < fence /\ ~BugFenceAcksOld
       THEN /\ net' = Rest(m, d)
            /\ UNCHANGED <<store, nFs>>
       ELSE /\ store' = [store EXCEPT ![m.k] = Apply(@, [v |-> m.id, s |-> m.s])]
            /\ net' = Rest(m, d) \cup {[t |-> "putR", c |-> m.c, k |-> m.k, id |-> m.id, s |-> m.s,
                                        fs |-> NextFs]}
            /\ SentFs
    /\ CountDup(d)
    /\ act' = [a |-> "ServerPut", c |-> m.c, k |-> m.k, w |-> m.id, s |-> m.s, dup |-> d]
    /\ UNCHANGED <<switchVars, fence, ctrlVars, clientVars,
                   nW, nR, nLoss, nAdmit, nEvict, nSnap, nSwCrash, nClCrash, nRetry, ghostVars>>

\* GET / GET_FOR_CACHE / GET_EMBED.  §3.3 record embedding: the server compares
\* the embedded record with its own, keeps the newer one and returns it.
\* GET_FOR_CACHE replies go to the switch (it may mark the record latest).
ServerGet(m, d) ==
    /\ m \in net /\ m.t = "get" /\ DupOK(d)
    /\ LET cur == store[m.k]
           new == IF m.emb /= NoRec THEN Apply(cur, m.emb) ELSE cur
       IN /\ store' = [store EXCEPT ![m.k] = new]
          /\ net' = Rest(m, d) \cup
                {[t |-> IF m.cons THEN "getRC" ELSE "getR",
                  c |-> m.c, k |-> m.k, id |-> m.id, rec |-> new, fs |-> NextFs]}
          /\ AtHead(m)
          /\ SentFs
          /\ act' = [a |-> "ServerGet", c |-> m.c, k |-> m.k, r |-> m.id, rec |-> new, dup |-> d]
    /\ CountDup(d)
    /\ UNCHANGED <<switchVars, fence, ctrlVars, clientVars,
                   nW, nR, nLoss, nAdmit, nEvict, nSnap, nSwCrash, nClCrash, nRetry, ghostVars>>

\* EVICT_STORE from the controller: store if newer, acknowledge with the seq.
ServerEvict(m, d) ==
    /\ m \in net /\ m.t = "evict" /\ DupOK(d)
    /\ store' = [store EXCEPT ![m.k] = Apply(@, m.rec)]
    /\ net' = Rest(m, d) \cup (IF EvictAcked(store[m.k], m.rec)
                               THEN {[t |-> "evictAck", k |-> m.k, s |-> m.rec.s]} ELSE {})
    /\ CountDup(d)
    /\ act' = [a |-> "ServerEvict", k |-> m.k, rec |-> m.rec, dup |-> d]
    /\ UNCHANGED <<switchVars, fence, ctrlVars, clientVars,
                   nW, nR, nLoss, nAdmit, nEvict, nSnap, nSwCrash, nClCrash, nRetry, nFs, ghostVars>>

\* §3.2 (2): a server reports a hot key with its current record to the
\* controller.  The hotness policy (Count-Min Sketch) is abstracted away: any
\* uncached key may be reported at any time.  §3.2: the server avoids
\* duplicate reports of a key; we model its bookkeeping by letting it see
\* whether the key is in the cache's key table and whether a report is still
\* in flight (the server learns of evictions from EVICT_STORE).  Duplicated
\* reports (MaxDup) still reach the controller.
ServerReportHot(k) ==
    /\ nAdmit < MaxAdmit
    /\ ~InCache(k)
    /\ ~\E m \in net : m.t = "hot" /\ m.k = k
    /\ net' = net \cup {[t |-> "hot", k |-> k, rec |-> store[k]]}
    /\ act' = [a |-> "ServerReportHot", k |-> k, rec |-> store[k]]
    /\ UNCHANGED <<switchVars, serverVars, ctrlVars, clientVars, cntVars, ghostVars>>

-----------------------------------------------------------------------------
(* Switch: GET_FOR_CACHE replies (§3.2 rule (ii)).                           *)
(*                                                                          *)
(* The paper marks an outdated record latest when "a read response from the *)
(* server" passes.  Replies can be reordered with respect to writes the     *)
(* switch forwarded earlier (and a reply can survive an eviction and a      *)
(* re-admission of its key), so the reply may be older than a write that    *)
(* has already been acknowledged.  The switch therefore accepts the reply   *)
(* only if its seq is at least the key's counter, i.e. no write to the key  *)
(* has been serialised after the record it carries.  BugUnguardedLatest     *)
(* compares with the cached record's seq instead, which is not enough.      *)
(* The client's read completes in the same step (the switch relays the      *)
(* reply).                                                                  *)
GetReplyAccepted(rec, k) ==
    IF BugUnguardedLatest THEN rec.s >= crec[k].s
    ELSE IF FillBySeen THEN fillFloor[k] /= FloorUnknown /\ rec.s >= Max(fillFloor[k], seen[k])
    ELSE rec.s >= ctr[k]

SwitchGetReply(m, d) ==
    /\ up /\ m \in net /\ m.t = "getRC" /\ DupOK(d) /\ AtHead(m)
    /\ LET k == IF BugReplyBySlot /\ ~InCache(m.k) /\ \E j \in Key : InCache(j)
                THEN CHOOSE j \in Key : InCache(j) ELSE m.k
           ok == Hit(k) /\ ~latest[k] /\ ~tbe[k] /\ GetReplyAccepted(m.rec, k)
       IN /\ IF ok
             THEN /\ SendOriginal(k)
                  /\ crec' = [crec EXCEPT ![k] = m.rec]
                  /\ latest' = [latest EXCEPT ![k] = TRUE]
                  /\ SeeSeq(k, m.rec.s)
             ELSE /\ SeeReply(k, m.rec.s)
                  /\ UNCHANGED <<crec, snapSent, snapOrig>>
    /\ net' = Rest(m, d)
    /\ CountDup(d)
    /\ IF pend[m.c].t = "r" /\ pend[m.c].id = m.id
       THEN /\ pend' = [pend EXCEPT ![m.c] = NoOp]
            /\ lastRead' = [floor |-> pend[m.c].floor, got |-> m.rec.v]
            /\ Complete(m.k, m.rec.v, FALSE, opFloor[m.c])
            /\ Retire(m.c)
       ELSE UNCHANGED <<pend, lastRead, linMax, linBad, opFloor>>
    /\ act' = [a |-> "SwitchGetReply", c |-> m.c, k |-> m.k, r |-> m.id, rec |-> m.rec, dup |-> d]
    /\ UNCHANGED <<up, lastNum, valid, tbe, ctr, snapOn, fillFloor, serverVars,
                   admitting, probing, evRec, snapKeys, snapLoad, snap, pres,
                   nW, nR, nLoss, nAdmit, nEvict, nSnap, nSwCrash, nClCrash, nRetry, nFs,
                   doneMax, pointCache, snapTruth, ackFloor, wkey>>

-----------------------------------------------------------------------------
(* Controller: non-blocking cache admission (§3.2, Figures 3 and 4).         *)

\* The controller admits only keys that are neither cached nor being admitted
\* (being admitted implies cached), only into a free slot, within the budget.
AdmitGuard(k) ==
    /\ up /\ nAdmit < MaxAdmit
    /\ IF BugNoMgmtDedup
       THEN ~tbe[k] /\ (InCache(k) \/ NCached < CacheSize)
       ELSE ~InCache(k) /\ NCached < CacheSize

\* FillBySeen: the controller learns the fill floor by probing the key's
\* server after the key's lookup entry is installed (SEQ_PROBE, tagged with
\* the admission's number): the server's record then is at least its record
\* at the install, and every write numbered after the install passes the
\* switch and raises seen[k].  Until the reply returns the floor is unknown
\* (no reply fills the record) and the admission is not validated.
\* BugSeenNoFloor admits without a probe, leaving the floor as it was.
Probes == FillBySeen /\ ~BugSeenNoFloor
ProbeOf(k, a) == IF Probes THEN {[t |-> "probe", k |-> k, a |-> a]} ELSE {}

\* Steps (1)+(2) of atomic validity control: set the validity register
\* invalid, install the key and the reported value, marked outdated (§3.2 (1)
\* of Figure 3(b)).  Until step (3) requests for the key are cache misses.
AdmitInstall(m, d) ==
    /\ m \in net /\ m.t = "hot" /\ DupOK(d)
    /\ AdmitGuard(m.k)
    /\ nAdmit' = nAdmit + 1
    /\ net' = Rest(m, d) \cup ProbeOf(m.k, nAdmit + 1)
    /\ CountDup(d)
    /\ crec' = [crec EXCEPT ![m.k] = m.rec]
    /\ valid' = [valid EXCEPT ![m.k] = FALSE]
    /\ latest' = [latest EXCEPT ![m.k] = BugAdmitLatest]
    /\ admitting' = [admitting EXCEPT ![m.k] = TRUE]
    /\ seen' = IF FillBySeen THEN [seen EXCEPT ![m.k] = 0] ELSE seen
    /\ fillFloor' = IF Probes THEN [fillFloor EXCEPT ![m.k] = FloorUnknown] ELSE fillFloor
    /\ probing' = IF Probes THEN [probing EXCEPT ![m.k] = nAdmit + 1] ELSE probing
    /\ act' = [a |-> "AdmitInstall", k |-> m.k, rec |-> m.rec, dup |-> d]
    /\ UNCHANGED <<up, lastNum, tbe, ctr, snapOn, snapSent, serverVars,
                   evRec, snapKeys, snapOrig, snapLoad, snap, clientVars,
                   nW, nR, nLoss, nEvict, nSnap, nSwCrash, nClCrash, nRetry, nFs, ghostVars>>

\* Step (3): set the validity register valid; the record now serves hits.
AdmitValidate(k) ==
    /\ up /\ admitting[k]
    /\ probing[k] = 0     \* FillBySeen: the fill floor is known
    /\ valid' = [valid EXCEPT ![k] = TRUE]
    /\ admitting' = [admitting EXCEPT ![k] = FALSE]
    /\ act' = [a |-> "AdmitValidate", k |-> k]
    /\ UNCHANGED <<up, lastNum, crec, latest, tbe, ctr, snapOn, snapSent, seen, fillFloor, serverVars,
                   probing, evRec, snapKeys, snapOrig, snapLoad, snap, clientVars, net, cntVars, ghostVars>>

\* The server answers a probe with the seq of the record it holds (a fenced
\* server's records are at least the fence: Recover stores them so).
ServerProbe(m, d) ==
    /\ m \in net /\ m.t = "probe" /\ DupOK(d)
    /\ net' = Rest(m, d) \cup {[t |-> "probeR", k |-> m.k, a |-> m.a, s |-> store[m.k].s]}
    /\ CountDup(d)
    /\ act' = [a |-> "ServerProbe", k |-> m.k, adm |-> m.a, s |-> store[m.k].s, dup |-> d]
    /\ UNCHANGED <<switchVars, serverVars, ctrlVars, clientVars,
                   nW, nR, nLoss, nAdmit, nEvict, nSnap, nSwCrash, nClCrash, nRetry, nFs, ghostVars>>

\* The reply to the probe of k's admission in progress sets k's fill floor.  A
\* reply to an earlier admission's probe (late or duplicated) does not: that
\* server record may predate this admission's install (BugProbeAnyAdmission).
ProbeMatches(m) == probing[m.k] /= 0 /\ (BugProbeAnyAdmission \/ m.a = probing[m.k])

AdmitFloor(m, d) ==
    /\ up /\ m \in net /\ m.t = "probeR" /\ DupOK(d)
    /\ ProbeMatches(m)
    /\ net' = Rest(m, d)
    /\ CountDup(d)
    /\ fillFloor' = [fillFloor EXCEPT ![m.k] = m.s]
    /\ probing' = [probing EXCEPT ![m.k] = 0]
    /\ act' = [a |-> "AdmitFloor", k |-> m.k, adm |-> m.a, s |-> m.s, dup |-> d]
    /\ UNCHANGED <<up, lastNum, crec, valid, latest, tbe, ctr, snapOn, snapSent, seen, serverVars,
                   admitting, evRec, snapKeys, snapOrig, snapLoad, snap, clientVars,
                   nW, nR, nLoss, nAdmit, nEvict, nSnap, nSwCrash, nClCrash, nRetry, nFs, ghostVars>>

\* A probe reply the controller no longer waits for is dropped.
DiscardProbeReply(m) ==
    /\ m \in net /\ m.t = "probeR"
    /\ ~ProbeMatches(m)
    /\ net' = net \ {m}
    /\ act' = [a |-> "DiscardProbeReply", k |-> m.k, adm |-> m.a, s |-> m.s]
    /\ UNCHANGED <<switchVars, serverVars, ctrlVars, clientVars, cntVars, ghostVars>>

\* The controller re-sends the probe when neither it nor its reply is in
\* flight any more (one was lost).
ProbeResend(k) ==
    /\ up /\ probing[k] /= 0
    /\ ~\E m \in net : m.t \in {"probe", "probeR"} /\ m.k = k /\ m.a = probing[k]
    /\ net' = net \cup ProbeOf(k, probing[k])
    /\ act' = [a |-> "ProbeResend", k |-> k]
    /\ UNCHANGED <<switchVars, serverVars, ctrlVars, clientVars, cntVars, ghostVars>>

\* A report the controller cannot act on (key cached or being admitted, cache
\* full, admission budget spent) is dropped.  (A report the policy merely
\* declines is the same as a report never sent, so it needs no action.)
DiscardHot(m) ==
    /\ m \in net /\ m.t = "hot"
    /\ ~AdmitGuard(m.k)
    /\ net' = net \ {m}
    /\ act' = [a |-> "DiscardHot", k |-> m.k]
    /\ UNCHANGED <<switchVars, serverVars, ctrlVars, clientVars, cntVars, ghostVars>>

-----------------------------------------------------------------------------
(* Controller: available cache eviction (§3.3, Figure 5).                   *)

\* (1) mark the victim to-be-evicted and load its record; (2) send it to the
\* server (EVICT_STORE).  The victim choice (least-frequent sampled record) is
\* abstracted: any valid cached record may be chosen.
EvictStart(k) ==
    /\ up /\ nEvict < MaxEvict
    /\ InCache(k) /\ ~tbe[k] /\ evRec[k] = NoRec
    /\ IF BugNoMgmtDedup THEN TRUE ELSE valid[k]
    /\ nEvict' = nEvict + 1
    /\ tbe' = [tbe EXCEPT ![k] = TRUE]
    /\ evRec' = [evRec EXCEPT ![k] = crec[k]]
    /\ net' = net \cup {[t |-> "evict", k |-> k, rec |-> crec[k]]}
    /\ act' = [a |-> "EvictStart", k |-> k, rec |-> crec[k]]
    /\ UNCHANGED <<up, lastNum, crec, valid, latest, ctr, snapOn, snapSent, seen, fillFloor, serverVars,
                   admitting, probing, snapKeys, snapOrig, snapLoad, snap, clientVars,
                   nW, nR, nLoss, nDup, nAdmit, nSnap, nSwCrash, nClCrash, nRetry, nFs, ghostVars>>

\* The controller retransmits EVICT_STORE when neither it nor its
\* acknowledgement is in flight any more (it was lost).
EvictResend(k) ==
    /\ up /\ evRec[k] /= NoRec
    /\ [t |-> "evict", k |-> k, rec |-> evRec[k]] \notin net
    /\ [t |-> "evictAck", k |-> k, s |-> evRec[k].s] \notin net
    /\ net' = net \cup {[t |-> "evict", k |-> k, rec |-> evRec[k]]}
    /\ act' = [a |-> "EvictResend", k |-> k]
    /\ UNCHANGED <<switchVars, serverVars, ctrlVars, clientVars, cntVars, ghostVars>>

\* Remove k from the cache.  §3.4 corner case: if k was in the snapshot and
\* its record has not been loaded yet, the controller keeps the evicted record
\* (unchanged since the point, or an original was sent) for the snapshot.
FinishEviction(k) ==
    /\ crec' = [crec EXCEPT ![k] = NoRec]
    /\ valid' = [valid EXCEPT ![k] = FALSE]
    /\ latest' = [latest EXCEPT ![k] = FALSE]
    /\ tbe' = [tbe EXCEPT ![k] = FALSE]
    /\ evRec' = [evRec EXCEPT ![k] = NoRec]
    /\ snapLoad' = IF snapOn /\ k \in snapKeys /\ snapLoad[k] = NoRec
                   THEN [snapLoad EXCEPT ![k] = evRec[k]]
                   ELSE snapLoad

\* (3) after the server's acknowledgement the controller actually evicts the
\* record.  The acknowledgement carries the seq of the stored record and must
\* match the record being evicted: a duplicated acknowledgement of an earlier
\* eviction of the same key must not finish this one (BugAckWithoutSeq).
AckMatches(m) == evRec[m.k] /= NoRec /\ (BugAckWithoutSeq \/ m.s = evRec[m.k].s)

EvictFinish(m, d) ==
    /\ up /\ m \in net /\ m.t = "evictAck" /\ DupOK(d)
    /\ AckMatches(m)
    /\ net' = Rest(m, d)
    /\ CountDup(d)
    /\ FinishEviction(m.k)
    /\ act' = [a |-> "EvictFinish", k |-> m.k, dup |-> d]
    /\ UNCHANGED <<up, lastNum, ctr, snapOn, snapSent, seen, fillFloor, serverVars, admitting, probing, snapKeys, snapOrig, snap, clientVars,
                   nW, nR, nLoss, nAdmit, nEvict, nSnap, nSwCrash, nClCrash, nRetry, nFs, ghostVars>>

\* BugEvictBeforeAck: evict as soon as EVICT_STORE has been sent.
EvictFinishNoAck(k) ==
    /\ BugEvictBeforeAck
    /\ up /\ evRec[k] /= NoRec
    /\ FinishEviction(k)
    /\ net' = net
    /\ act' = [a |-> "EvictFinishNoAck", k |-> k]
    /\ UNCHANGED <<up, lastNum, ctr, snapOn, snapSent, seen, fillFloor, serverVars,
                   admitting, probing, snapKeys, snapOrig, snap, clientVars, cntVars, ghostVars>>

\* Stale or duplicated acknowledgements are ignored.
DiscardAck(m) ==
    /\ m \in net /\ m.t = "evictAck"
    /\ ~AckMatches(m)
    /\ net' = net \ {m}
    /\ act' = [a |-> "DiscardAck", k |-> m.k]
    /\ UNCHANGED <<switchVars, serverVars, ctrlVars, clientVars, cntVars, ghostVars>>

-----------------------------------------------------------------------------
(* Controller: crash-consistent snapshot generation (§3.4, Figure 6).       *)

\* Phase 1 (1): the controller triggers snapshot generation in the switch; the
\* snapshot point.  (Atomic in all pipelines thanks to recirculation, §3.4.)
\* The controller knows which keys it has admitted (valid) at this point.
SnapStart ==
    /\ up /\ ~snapOn /\ nSnap < MaxSnap /\ SnapWanted
    /\ nSnap' = nSnap + 1
    /\ snapOn' = TRUE
    /\ snapSent' = [k \in Key |-> FALSE]
    /\ snapKeys' = {k \in Key : Hit(k)}
    /\ snapOrig' = [k \in Key |-> NoRec]
    /\ snapLoad' = [k \in Key |-> NoRec]
    /\ pointCache' = [k \in Key |-> IF Hit(k) THEN crec[k] ELSE NoRec]
    /\ act' = [a |-> "SnapStart"]
    /\ UNCHANGED <<up, lastNum, crec, valid, latest, tbe, ctr, seen, fillFloor, serverVars, admitting, probing, evRec, snap,
                   clientVars, net, nW, nR, nLoss, nDup, nAdmit, nEvict, nSwCrash, nClCrash, nRetry, nFs,
                   doneMax, lastRead, snapTruth, ackFloor, linVars>>

\* Phase 2 (3): load one cached record.  The switch then no longer needs to
\* send its original.  Corner case 1: records admitted after the snapshot
\* point are not loaded (BugSnapshotLateAdmit loads them too).
SnapLoad(k) ==
    /\ up /\ snapOn
    /\ IF BugSnapshotLateAdmit THEN TRUE ELSE k \in snapKeys
    /\ snapLoad[k] = NoRec /\ Hit(k)
    /\ snapLoad' = [snapLoad EXCEPT ![k] = crec[k]]
    /\ snapSent' = [snapSent EXCEPT ![k] = TRUE]
    /\ act' = [a |-> "SnapLoad", k |-> k, rec |-> crec[k]]
    /\ UNCHANGED <<up, lastNum, crec, valid, latest, tbe, ctr, snapOn, seen, fillFloor, serverVars,
                   admitting, probing, evRec, snapKeys, snapOrig, snap, clientVars, net, cntVars, ghostVars>>

\* All records of the snapshot are loaded: revert overwritten ones to their
\* originals, keep the result, stop monitoring writes and announce
\* SNAPSHOT_DONE: each client releases the preserved records whose seq is no
\* larger than the snapshot's seq for that key.  Delivering the notification
\* to every client in this step is the worst case for durability: a client
\* that hears of the snapshot later (or never) only keeps records longer.
\* The paper's release rule: a preserved record r of k is released when the
\* snapshot just finished holds k with r's seq or newer.  (A key not cached at
\* the snapshot point is not announced, so a record of a key evicted since it
\* was written stays until a switch crash: see FarReachLive.)
ReleaseCovered(r, k) == snap'[k] /= NoRec /\ r.s <= snap'[k].s

SnapFinish ==
    /\ up /\ snapOn
    /\ \A k \in snapKeys : snapLoad[k] /= NoRec
    /\ LET inSnap(k) == IF BugSnapshotLateAdmit THEN snapLoad[k] /= NoRec ELSE k \in snapKeys
       IN snap' = [k \in Key |-> IF ~inSnap(k) THEN NoRec
                                 ELSE IF snapOrig[k] /= NoRec THEN snapOrig[k]
                                 ELSE snapLoad[k]]
    /\ pres' = [c \in Client |-> [k \in Key |->
                 IF pres[c][k] /= NoRec /\ ReleaseCovered(pres[c][k], k)
                 THEN NoRec ELSE pres[c][k]]]
    /\ snapOn' = FALSE
    /\ snapTruth' = pointCache
    /\ act' = [a |-> "SnapFinish"]
    /\ UNCHANGED <<up, lastNum, crec, valid, latest, tbe, ctr, snapSent, seen, fillFloor, serverVars,
                   admitting, probing, evRec, snapKeys, snapOrig, snapLoad, pend, net, cntVars,
                   doneMax, lastRead, pointCache, ackFloor, linVars>>

-----------------------------------------------------------------------------
(* Switch crash and zero-loss recovery (§3.4).                               *)

\* The switch loses every register; every packet in flight is lost (all
\* traffic crosses the switch; a packet that would reach a host after the crash
\* is equivalent to one delivered just before it).  Admissions, evictions and
\* a snapshot in progress are abandoned; the last completed snapshot survives
\* at the controller.
SwitchCrash ==
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
    /\ net' = IF CrashKeepsServerBound THEN {m \in net : m.t \in {"put", "get", "evict"}} ELSE {}
    /\ ackFloor' = doneMax
    /\ act' = [a |-> "SwitchCrash"]
    /\ UNCHANGED <<serverVars, snap, clientVars, nW, nR, nLoss, nDup, nAdmit, nEvict, nSnap, nClCrash, nRetry, nFs,
                   doneMax, lastRead, pointCache, snapTruth, linVars>>

\* Replay-based recovery: for each key take the newest of the snapshot and the
\* records preserved by all (live) clients, store it at the server if its seq
\* is higher (RECOVER_STORE, retried until acknowledged, hence atomic here),
\* then clients release their preserved records; recover the cache by
\* re-admitting every snapshot record marked outdated.  The paper does not say
\* how the switch's sequence counters are restored; they must not go below
\* any seq still in the system.  As farreach.p4's controller does
\* (SequenceBase: the g-th switch incarnation numbers from (g-1) * 2^24), every
\* counter restarts at the new incarnation's base, strictly above every seq any
\* earlier incarnation assigned: IncarnationBase.  On its own that would keep
\* every record from before the crash from passing the latest guard
\* (rec.s >= ctr[k]) until its key is written again.  So recovery then fences
\* the servers (SEQ_FENCE, retried until acknowledged, after the replay and
\* before the gate opens; atomic here): from then on a server refuses every
\* record numbered below the base, and reports each record it holds with a
\* seq of at least the base (Fenced).  Its record can no longer change except
\* by a write of the new incarnation, so a reply carrying it passes the guard
\* exactly while no such write is numbered (docs/specs/farreach.md,
\* "Recovery's sequence base and the server fence").
\* Above every seq assigned so far: incarnation g numbers at most the writes
\* issued since its base, each one seq (a renumbered retry one more), and its
\* base is the writes issued before it plus g - 1, so every seq it assigns is
\* at most nW (+ nRetry) + g - 1; the next base, taken after the g-th crash,
\* adds nSwCrash = g.
IncarnationBase == nW + (IF BugRetryRenumbers \/ BugRetryAcrossCrash THEN nRetry ELSE 0) + nSwCrash

Best(k) ==
    LET cands == {snap[k]} \cup (IF BugRecoveryIgnoresPreserved THEN {}
                                 ELSE {pres[c][k] : c \in Client})
    IN CHOOSE r \in cands : \A o \in cands : o.s <= r.s

\* A fenced server's view of a record: a seq below the fence reads as the fence.
Fenced(r) == IF BugNoFence THEN r ELSE [v |-> r.v, s |-> Max(r.s, IncarnationBase)]

Recover ==
    /\ ~up /\ RecoverReady
    /\ LET held == IF BugFenceBeforeReplay THEN [k \in Key |-> Fenced(store[k])] ELSE store
           newStore == [k \in Key |-> IF Best(k).s > held[k].s THEN Best(k) ELSE held[k]]
       IN /\ store' = [k \in Key |-> Fenced(newStore[k])]
          /\ fence' = IF BugNoFence THEN fence ELSE IncarnationBase
          /\ ctr' = [k \in Key |-> IF BugRecoveryResetsCounter THEN 0 ELSE IncarnationBase]
    /\ up' = TRUE
    /\ crec' = snap
    /\ valid' = [k \in Key |-> snap[k] /= NoRec]
    /\ latest' = [k \in Key |-> BugRecoverLatest]
    \* FillBySeen: no write of the new incarnation is numbered before the gate
    \* opens, and every fenced server holds at least the base (farreach.p4:
    \* record_last_write_seq := the fence)
    /\ fillFloor' = IF FillBySeen THEN [k \in Key |-> IncarnationBase] ELSE fillFloor
    /\ pres' = [c \in Client |-> [k \in Key |-> NoRec]]
    /\ act' = [a |-> "Recover"]
    /\ UNCHANGED <<tbe, lastNum, seen, snapOn, snapSent, ctrlVars, pend, net, cntVars, ghostVars>>

-----------------------------------------------------------------------------
(* Network faults *)

\* Loss of any message in flight (bounded).
Lose(m) ==
    /\ m \in net /\ nLoss < MaxLoss
    /\ net' = net \ {m}
    /\ nLoss' = nLoss + 1
    /\ act' = [a |-> "Lose", m |-> m]
    /\ UNCHANGED <<switchVars, serverVars, ctrlVars, clientVars,
                   nW, nR, nDup, nAdmit, nEvict, nSnap, nSwCrash, nClCrash, nRetry, nFs, ghostVars>>

-----------------------------------------------------------------------------
Next ==
    \/ \E c \in Client, k \in Key :
          \/ ClientWriteHit(c, k) \/ ClientWriteForward(c, k) \/ ClientWriteDropped(c, k)
          \/ ClientReadHit(c, k) \/ ClientReadForward(c, k) \/ ClientReadDropped(c, k)
    \/ \E c \in Client : ClientGiveUp(c) \/ ClientCrash(c) \/ ClientRetry(c)
    \/ \E m \in net :
          \/ ClientPutReply(m) \/ ClientGetReply(m)
          \/ DiscardHot(m) \/ DiscardAck(m) \/ DiscardProbeReply(m) \/ Lose(m)
          \/ \E d \in BOOLEAN : ServerPut(m, d) \/ ServerGet(m, d) \/ ServerEvict(m, d)
                                \/ SwitchGetReply(m, d) \/ AdmitInstall(m, d) \/ EvictFinish(m, d)
                                \/ ServerProbe(m, d) \/ AdmitFloor(m, d)
    \/ \E k \in Key :
          \/ ServerReportHot(k) \/ AdmitValidate(k) \/ ProbeResend(k)
          \/ EvictStart(k) \/ EvictResend(k) \/ EvictFinishNoAck(k)
          \/ SnapLoad(k)
    \/ SnapStart \/ SnapFinish
    \/ SwitchCrash \/ Recover

Spec == Init /\ [][Next]_vars

\* Action coverage for ./innet verify (docs/models.md, "No vacuous models"):
\* not a property.  The first time a newly found state carries an action
\* label, print it; TLC register 1 holds the labels printed so far (set for
\* every worker by the ASSUME).  States reached again are not re-checked, so
\* an action whose every step leads to a known state goes unreported: the
\* report can only under-count.
ASSUME TLCSet(1, {})
ActionCoverage ==
    \/ act.a \in TLCGet(1)
    \/ /\ TLCSet(1, TLCGet(1) \cup {act.a})
       /\ PrintT(<<"innet-action", act.a>>)

-----------------------------------------------------------------------------
(* Properties *)

\* Linearizability surrogate (per key, over the recorded history): a read
\* never returns a value older than the newest write to that key that was
\* acknowledged before the read began.  (Values are write ids; for one key a
\* smaller id is an older write.)
ReadsNotStale == lastRead.got >= lastRead.floor

\* Linearizability (per key, in the style of the Pegasus spec).  The order:
\* writes by id (the order the switch serialises them, which is also their
\* seq order, the order servers keep), each read right after the write whose
\* value it returns (reads of one value in real-time order).  It is a valid
\* linearization of the history iff every operation that completes can be
\* placed at or after the end of the order as it stood when the operation was
\* invoked (strictly after for a write): an operation that starts after another
\* completed is ordered after it; and a read returns a value written to its own
\* key (0 = the initial value).  Unlike ReadsNotStale this also orders reads
\* after earlier reads (a read that saw a write not yet acknowledged fixes it)
\* and checks where a value came from.  Writes never acknowledged (lost, given
\* up) stay pending: they may take effect or not.  Complete() records the first
\* operation that cannot be placed in linBad.
Linearizable == linBad = NoBad

\* Zero-loss recovery: once the switch has crashed and recovery has run,
\* every write acknowledged before the crash is stored at its server (or a
\* newer write is) -- provided no client has crashed (the paper's premise).
Recovered == nSwCrash > 0 /\ up
NoLostWrites ==
    (Recovered /\ nClCrash = 0) => \A k \in Key : store[k].v >= ackFloor[k]

\* The same without the premise.  The paper states (§3.4 "Client crashes")
\* that it does not hold: a client that crashes loses the records it
\* preserved.  Only the LIMITATION model checks it.
NoLostWritesDespiteClientCrash ==
    Recovered => \A k \in Key : store[k].v >= ackFloor[k]

\* Crash consistency: the snapshot the controller keeps equals the cache
\* contents (valid records) at its snapshot point.
SnapshotConsistent == snap = snapTruth

\* Structural: a valid cached record's seq never exceeds the switch's counter
\* for the key (otherwise the next write would get a seq that is not newer).
SeqBounded == \A k \in Key : Hit(k) => crec[k].s <= ctr[k]

\* Structural: at most one admission or eviction in flight per key.
OneMgmtOpPerKey == \A k \in Key : ~(admitting[k] /\ evRec[k] /= NoRec)

\* Structural: the to-be-evicted flag is set exactly while the controller has
\* an eviction of that key in flight; the cache never exceeds its capacity.
EvictionFlagConsistent == \A k \in Key : tbe[k] <=> evRec[k] /= NoRec
CacheWithinCapacity == NCached <= CacheSize

=============================================================================
