------------------------------ MODULE DistCache ------------------------------
(***************************************************************************)
(* DistCache (Liu et al., FAST '19) cache coherence across two cache      *)
(* layers: every hot key has one copy in an upper-layer (spine) cache     *)
(* switch and one in a lower-layer (leaf) cache switch, each layer        *)
(* partitioned by its own hash function (Place).  Reads go to one of the  *)
(* two copies, chosen by the power of two choices; writes go to the key's *)
(* storage server, which runs the two-phase update of §4.3:               *)
(*   phase 1  invalidate every copy, resend on timeout, wait for every    *)
(*            copy's acknowledgement;                                      *)
(*   then     apply the write and acknowledge the client (safe: all       *)
(*            copies are invalid);                                         *)
(*   phase 2  send the new value to every copy, which becomes valid.      *)
(* Cache insertion (§4.3 "Cache update") reuses phase 2: the switch agent *)
(* inserts the key invalid and asks the server, which sends a phase-2     *)
(* update serialized with its writes (never during a phase 1).            *)
(*                                                                         *)
(* The paper leaves two questions open that matter once packets are lost, *)
(* duplicated and reordered; this spec answers them and shows with buggy  *)
(* variants why the answers are needed (docs/specs/distcache.md):          *)
(*  - a phase-2 update can arrive after the NEXT write's invalidation: so  *)
(*    every invalidation and update carries the server's version of the   *)
(*    key and a copy takes an update only if its version is at least the  *)
(*    highest version it has seen (`seen`);                                *)
(*  - a newly inserted copy (after eviction or a switch failure) has seen *)
(*    nothing, so an old phase-2 update still in flight would pass that   *)
(*    test: so an inserted copy takes only the update that answers its    *)
(*    own insertion, named by a token (`tok`) unique across insertions    *)
(*    and switch incarnations, and phase-2 updates only once filled.       *)
(*                                                                         *)
(* Actors: clients, the storage server of each key (Owner is irrelevant   *)
(* to coherence: each key has one server and keys are independent), the   *)
(* cache switches (one per layer per key: Place[l][k]) with their agents, *)
(* and the network: a SET of messages, so any order, loss (MaxLoss) and   *)
(* duplication (MaxDup, "deliver and keep").  A cache switch may crash    *)
(* and restart with an empty cache (MaxCrash); messages on the wire       *)
(* survive it (those inside it are covered by Lose).                       *)
(*                                                                         *)
(* Modelling choices (each argued in docs/specs/distcache.md):            *)
(*  - the invalidation packet that loops through every switch caching the *)
(*    key (Fig. 7a) is modelled as one invalidation per copy, each        *)
(*    acknowledged: the looping packet is one schedule of these;          *)
(*  - query routing: the client's ToR compares the two cache switches'    *)
(*    loads, which arrive by telemetry on replies; any load values are     *)
(*    possible, so a read may go to either copy (ClientRead's l);          *)
(*  - a read hit completes in the step the client sends it, and a        *)
(*    server's reply reaches its client in the step the server sends it   *)
(*    (a reply lost on the way only makes the client give up instead of   *)
(*    completing: a weaker check than the one modelled);                  *)
(*  - client writes are not duplicated by the network (a write executed  *)
(*    twice is an at-most-once question, outside this spec);              *)
(*  - hot-key detection is abstracted: an agent may insert any uncached   *)
(*    key of its partition, and evict any cached one, at any time.        *)
(*                                                                         *)
(* Bug flags turn on one known-wrong variant each; with all flags FALSE   *)
(* the spec is the protocol.                                               *)
(*                                                                         *)
(* Hooks a model may swap in its .cfg (Hook <- Definition), defaults here: *)
(*  - RefetchInvalid (FALSE): the agent re-fills a copy that stays invalid *)
(*    (CacheRefetch), as innet's DistCache agent does; FALSE keeps every   *)
(*    model written before it exactly as it was;                           *)
(*  - RefetchDue(l, k) (TRUE): when the agent's re-fill may happen; safety *)
(*    models let it happen at any moment, even to a valid copy (the       *)
(*    agent's read of the copy may be stale when it acts), liveness models *)
(*    (DistCacheLive) only to an invalid copy with nothing of it in flight *)
(*    (a timeout);                                                         *)
(*  - InvResends (TRUE): the server's phase-1 timeout (ServerResendInv);   *)
(*    FALSE is a buggy variant for the liveness models.                    *)
(***************************************************************************)
EXTENDS Integers, FiniteSets, TLC

CONSTANTS
    Client,          \* client identifiers
    Key,             \* keys
    Node,            \* cache switches (of both layers)
    Place,           \* Place[l][k]: the cache switch of layer l whose partition holds k
    \* ---- bounds (all models are finite because of these) ----
    MaxWrites,       \* total client writes (also the largest value and version)
    MaxReads,        \* total client reads
    MaxLoss,         \* messages the network may lose
    MaxDup,          \* messages the network may duplicate
    MaxInsert,       \* cache insertions the agents may perform (also the largest token)
    MaxEvict,        \* cache evictions the agents may perform
    MaxCrash,        \* cache-switch crashes (each a restart with an empty cache)
    \* ---- bug flags: each TRUE flag replaces one rule by a wrong one ----
    BugSinglePhase,      \* no phase 1: the server applies, acknowledges and sends the updates at once
    BugUpdateOnFirstAck, \* phase 1 ends at the FIRST invalidation acknowledgement, not the last
    BugRevalidateEarly,  \* a copy takes the new value and turns valid when the invalidation
                         \*   reaches it, before the server has applied and acknowledged the write
    BugNoVersionGuard,   \* a copy takes every phase-2 update, however old its version
    BugFetchDuringWrite, \* the server answers an insertion while a write's phase 1 runs
    BugNoFillToken       \* an inserted copy takes any update (no token): an old phase-2 update fills it

Layer == {"spine", "leaf"}

ASSUME Place \in [Layer -> [Key -> Node]]
ASSUME \A n \in {MaxWrites, MaxReads, MaxLoss, MaxDup, MaxInsert, MaxEvict, MaxCrash} : n \in Nat
ASSUME \A b \in {BugSinglePhase, BugUpdateOnFirstAck, BugRevalidateEarly, BugNoVersionGuard,
                 BugFetchDuringWrite, BugNoFillToken} : b \in BOOLEAN

Val   == 0..MaxWrites                    \* values are write ids; 0 is every key's initial value
Ver   == 0..MaxWrites                    \* the server's version of a key: one per applied write
Tok   == 0..MaxInsert                    \* insertion tokens; 0 = none (a filled copy)
Rec   == [v : Val, n : Ver]              \* a record: value and the version the server gave it
Init0 == [v |-> 0, n |-> 0]

Max(a, b) == IF a >= b THEN a ELSE b

NoOp   == [t |-> "none", k |-> "none", id |-> 0]
NoCur  == [c |-> "none", w |-> 0, n |-> 0]
NoBad  == [k |-> "none", floor |-> 0, ver |-> 0]

VARIABLES
    \* ---- cache switches (one copy of k per layer, at Place[l][k]) ----
    cached,    \* cached[l][k]: the copy has a cache entry (the agent inserted it)
    valid,     \* valid[l][k]: the copy answers reads
    crec,      \* crec[l][k]: the cached record (meaningful while valid)
    seen,      \* seen[l][k]: highest version of an invalidation or update the copy has taken
    tok,       \* tok[l][k]: the token of the insertion still waiting for its fill (0: filled)
    \* ---- storage servers ----
    store,     \* store[k]: the primary copy
    cur,       \* cur[k]: the write in phase 1 (NoCur: the server is idle for k)
    acked,     \* acked[k]: layers whose invalidation of cur[k] has been acknowledged
    \* ---- clients ----
    pend,      \* pend[c]: the client's outstanding operation (NoOp if idle)
    \* ---- network ----
    net,       \* set of messages in flight
    \* ---- counters and bounds ----
    nW, nR, nLoss, nDup, nIns, nEvict, nCrash,
    \* ---- linearizability history (ghost): see Linearizable ----
    linMax,    \* linMax[k]: largest version of any completed operation on k (end of the order)
    opFloor,   \* opFloor[c]: linMax[key] when c's pending operation was invoked
    verOf,     \* verOf[k][n]: the write id the server gave version n of k (0: none yet)
    linBad,    \* NoBad, or the first completed operation that cannot be placed in the order
    act        \* the last action and its parameters (for traces; not part of the VIEW)

cacheVars  == <<cached, valid, crec, seen, tok>>
serverVars == <<store, cur, acked>>
cntVars    == <<nW, nR, nLoss, nDup, nIns, nEvict, nCrash>>
linVars    == <<linMax, opFloor, verOf, linBad>>
vars == <<cacheVars, serverVars, pend, net, cntVars, linVars, act>>
\* Everything but the action label: model files use this as the VIEW so that
\* `act` does not multiply the number of distinct states.
viewVars == <<cacheVars, serverVars, pend, net, cntVars, linVars>>

-----------------------------------------------------------------------------
(* Messages.                                                                *)
(*  put    client -> server          c, k, id (= value)                      *)
(*  get    cache miss -> server      c, k, id                                *)
(*  inv    server -> copy l          k, l, rec (n: the new version; v only   *)
(*                                   for BugRevalidateEarly)                 *)
(*  invA   copy l -> server          k, l, n                                 *)
(*  upd    server -> copy l          k, l, rec, tok (0: phase 2; else a fill)*)
(*  fetch  agent of copy l -> server k, l, tok                               *)
-----------------------------------------------------------------------------

Msg ==
         [t : {"put"}, c : Client, k : Key, id : 1..MaxWrites]
    \cup [t : {"get"}, c : Client, k : Key, id : 1..MaxReads]
    \cup [t : {"inv"}, k : Key, l : Layer, rec : Rec]
    \cup [t : {"invA"}, k : Key, l : Layer, n : Ver]
    \cup [t : {"upd"}, k : Key, l : Layer, rec : Rec, tok : Tok]
    \cup [t : {"fetch"}, k : Key, l : Layer, tok : Tok]

OpT == [t : {"w", "r"}, k : Key, id : 1..Max(MaxWrites, MaxReads)] \cup {NoOp}

TypeOK ==
    /\ cached \in [Layer -> [Key -> BOOLEAN]]
    /\ valid \in [Layer -> [Key -> BOOLEAN]]
    /\ crec \in [Layer -> [Key -> Rec]]
    /\ seen \in [Layer -> [Key -> Ver]]
    /\ tok \in [Layer -> [Key -> Tok]]
    /\ store \in [Key -> Rec]
    /\ cur \in [Key -> [c : Client, w : 1..MaxWrites, n : Ver] \cup {NoCur}]
    /\ acked \in [Key -> SUBSET Layer]
    /\ pend \in [Client -> OpT]
    /\ net \subseteq Msg
    /\ nW \in 0..MaxWrites /\ nR \in 0..MaxReads
    /\ nLoss \in 0..MaxLoss /\ nDup \in 0..MaxDup
    /\ nIns \in 0..MaxInsert /\ nEvict \in 0..MaxEvict /\ nCrash \in 0..MaxCrash
    /\ linMax \in [Key -> Ver]
    /\ opFloor \in [Client -> Ver]
    /\ verOf \in [Key -> [1..MaxWrites -> Val]]

-----------------------------------------------------------------------------
Init ==
    /\ cached = [l \in Layer |-> [k \in Key |-> FALSE]]
    /\ valid = [l \in Layer |-> [k \in Key |-> FALSE]]
    /\ crec = [l \in Layer |-> [k \in Key |-> Init0]]
    /\ seen = [l \in Layer |-> [k \in Key |-> 0]]
    /\ tok = [l \in Layer |-> [k \in Key |-> 0]]
    /\ store = [k \in Key |-> Init0]
    /\ cur = [k \in Key |-> NoCur]
    /\ acked = [k \in Key |-> {}]
    /\ pend = [c \in Client |-> NoOp]
    /\ net = {}
    /\ nW = 0 /\ nR = 0 /\ nLoss = 0 /\ nDup = 0 /\ nIns = 0 /\ nEvict = 0 /\ nCrash = 0
    /\ linMax = [k \in Key |-> 0]
    /\ opFloor = [c \in Client |-> 0]
    /\ verOf = [k \in Key |-> [n \in 1..MaxWrites |-> 0]]
    /\ linBad = NoBad
    /\ act = [a |-> "Init"]

-----------------------------------------------------------------------------
(* Helpers *)

Hit(l, k) == cached[l][k] /\ valid[l][k]     \* copy l of k answers reads

RefetchInvalid == FALSE
RefetchDue(l, k) == TRUE
InvResends == TRUE

\* Deliver m once (d = FALSE) or deliver a copy and keep m in flight (d = TRUE).
Rest(m, d)  == IF d THEN net ELSE net \ {m}
DupOK(d)    == d => nDup < MaxDup
CountDup(d) == nDup' = IF d THEN nDup + 1 ELSE nDup

OpMsgInFlight(c) ==
    \/ pend[c].t = "w" /\ [t |-> "put", c |-> c, k |-> pend[c].k, id |-> pend[c].id] \in net
    \/ pend[c].t = "w" /\ cur[pend[c].k].c = c /\ cur[pend[c].k].w = pend[c].id
    \/ pend[c].t = "r" /\ [t |-> "get", c |-> c, k |-> pend[c].k, id |-> pend[c].id] \in net

\* Linearizability history (as in FarReach.tla).  The order of k: writes by
\* the version the server gives them (the order it serializes them in, which
\* is not their id order: writes may reach the server in any order), each
\* read right after the write whose record it returns.  Invoke: the pending
\* operation's floor is the end of k's order so far.  Done: an operation on k
\* with version ver (a write's version, a read's returned record's version)
\* invoked with floor fl completes; it must go after the floor (strictly for a
\* write), and a read's record must be the one the server made: version 0 with
\* value 0, or the write that got that version.
Invoke(c, k) == opFloor' = [opFloor EXCEPT ![c] = linMax[k]]
Retire(c)    == opFloor' = [opFloor EXCEPT ![c] = 0]
Done(k, ver, isWrite, fl, origin) ==
    LET placed == IF isWrite THEN ver > fl ELSE ver >= fl
    IN /\ linMax' = [linMax EXCEPT ![k] = Max(@, ver)]
       /\ linBad' = IF linBad = NoBad /\ ~(placed /\ origin)
                    THEN [k |-> k, floor |-> fl, ver |-> ver] ELSE linBad
Genuine(k, r) == IF r.n = 0 THEN r.v = 0 ELSE verOf[k][r.n] = r.v

\* A reply completes the client's operation if the client still waits for it.
Complete(c, k, id, isWrite, ver, origin) ==
    IF pend[c].t = (IF isWrite THEN "w" ELSE "r") /\ pend[c].id = id
    THEN /\ pend' = [pend EXCEPT ![c] = NoOp]
         /\ Retire(c)
         /\ Done(k, ver, isWrite, opFloor[c], origin)
    ELSE UNCHANGED <<pend, opFloor, linMax, linBad>>

-----------------------------------------------------------------------------
(* Clients *)

\* Writes go straight to the key's storage server (§4.2).
ClientWrite(c, k) ==
    /\ pend[c] = NoOp /\ nW < MaxWrites
    /\ LET w == nW + 1
       IN /\ nW' = w
          /\ net' = net \cup {[t |-> "put", c |-> c, k |-> k, id |-> w]}
          /\ pend' = [pend EXCEPT ![c] = [t |-> "w", k |-> k, id |-> w]]
          /\ act' = [a |-> "ClientWrite", c |-> c, k |-> k, w |-> w]
    /\ Invoke(c, k)
    /\ UNCHANGED <<cacheVars, serverVars, nR, nLoss, nDup, nIns, nEvict, nCrash,
                   linMax, verOf, linBad>>

\* A read: the client's ToR sends it to copy l, the one of k's two cache
\* switches it judges less loaded (any l: loads are abstracted).  A valid
\* copy answers (cache hit) in this step.
ClientReadHit(c, k, l) ==
    /\ pend[c] = NoOp /\ nR < MaxReads
    /\ Hit(l, k)
    /\ nR' = nR + 1
    /\ Done(k, crec[l][k].n, FALSE, linMax[k], Genuine(k, crec[l][k]))
    /\ act' = [a |-> "ClientReadHit", c |-> c, k |-> k, l |-> l, r |-> nR + 1, rec |-> crec[l][k]]
    /\ UNCHANGED <<cacheVars, serverVars, pend, net, nW, nLoss, nDup, nIns, nEvict, nCrash,
                   opFloor, verOf>>

\* Cache miss (not cached or invalid): the switch forwards the read to the
\* server, with no detour (§4.2).
ClientReadMiss(c, k, l) ==
    /\ pend[c] = NoOp /\ nR < MaxReads
    /\ ~Hit(l, k)
    /\ LET r == nR + 1
       IN /\ nR' = r
          /\ net' = net \cup {[t |-> "get", c |-> c, k |-> k, id |-> r]}
          /\ pend' = [pend EXCEPT ![c] = [t |-> "r", k |-> k, id |-> r]]
          /\ act' = [a |-> "ClientReadMiss", c |-> c, k |-> k, l |-> l, r |-> r]
    /\ Invoke(c, k)
    /\ UNCHANGED <<cacheVars, serverVars, nW, nLoss, nDup, nIns, nEvict, nCrash,
                   linMax, verOf, linBad>>

\* Timeout: nothing of the operation is in flight any more, so the client
\* abandons it.  A write may or may not have taken effect.
ClientGiveUp(c) ==
    /\ pend[c] /= NoOp
    /\ ~OpMsgInFlight(c)
    /\ pend' = [pend EXCEPT ![c] = NoOp]
    /\ Retire(c)
    /\ act' = [a |-> "ClientGiveUp", c |-> c]
    /\ UNCHANGED <<cacheVars, serverVars, net, cntVars, linMax, verOf, linBad>>

-----------------------------------------------------------------------------
(* Storage server (the shim layer of §4.1): one write of a key at a time.  *)

Idle(k) == cur[k] = NoCur

\* Phase 2 message to every copy (tok 0), after the record is applied.
Updates(k, r) == {[t |-> "upd", k |-> k, l |-> l, rec |-> r, tok |-> 0] : l \in Layer}

\* A write reaches the server.  It is taken only when no other write of the
\* key is in phase 1 (the server serializes writes per key); otherwise it
\* waits (stays in flight).  Phase 1: the next version, an invalidation to
\* each copy.  BugSinglePhase skips phase 1.
ServerWrite(m) ==
    /\ m \in net /\ m.t = "put" /\ Idle(m.k)
    /\ LET k == m.k
           n == store[k].n + 1
           r == [v |-> m.id, n |-> n]
       IN /\ verOf' = [verOf EXCEPT ![k][n] = m.id]
          /\ IF BugSinglePhase
             THEN /\ store' = [store EXCEPT ![k] = r]
                  /\ UNCHANGED <<cur, acked>>
                  /\ net' = (net \ {m}) \cup Updates(k, r)
                  /\ Complete(m.c, k, m.id, TRUE, n, TRUE)
             ELSE /\ cur' = [cur EXCEPT ![k] = [c |-> m.c, w |-> m.id, n |-> n]]
                  /\ acked' = [acked EXCEPT ![k] = {}]
                  /\ net' = (net \ {m}) \cup
                            {[t |-> "inv", k |-> k, l |-> l, rec |-> r] : l \in Layer}
                  /\ UNCHANGED <<store, pend, linMax, opFloor, linBad>>
          /\ act' = [a |-> "ServerWrite", c |-> m.c, k |-> k, w |-> m.id, n |-> n]
    /\ UNCHANGED <<cacheVars, cntVars>>

\* An invalidation acknowledgement for the write in phase 1.  When every
\* copy has acknowledged (BugUpdateOnFirstAck: any one), the server applies
\* the write, acknowledges the client and sends phase 2.  Others (old,
\* duplicated) are dropped.
ServerInvAck(m, d) ==
    /\ m \in net /\ m.t = "invA" /\ DupOK(d)
    /\ LET k == m.k
           a == acked[k] \cup {m.l}
       IN IF ~Idle(k) /\ m.n = cur[k].n
          THEN IF a = Layer \/ BugUpdateOnFirstAck
               THEN LET r == [v |-> cur[k].w, n |-> cur[k].n]
                    IN /\ store' = [store EXCEPT ![k] = r]
                       /\ cur' = [cur EXCEPT ![k] = NoCur]
                       /\ acked' = [acked EXCEPT ![k] = {}]
                       /\ net' = Rest(m, d) \cup Updates(k, r)
                       /\ Complete(cur[k].c, k, cur[k].w, TRUE, cur[k].n, TRUE)
               ELSE /\ acked' = [acked EXCEPT ![k] = a]
                    /\ net' = Rest(m, d)
                    /\ UNCHANGED <<store, cur, pend, linMax, opFloor, linBad>>
          ELSE /\ net' = Rest(m, d)
               /\ UNCHANGED <<serverVars, pend, linMax, opFloor, linBad>>
    /\ CountDup(d)
    /\ act' = [a |-> "ServerInvAck", k |-> m.k, l |-> m.l, n |-> m.n, dup |-> d]
    /\ UNCHANGED <<cacheVars, nW, nR, nLoss, nIns, nEvict, nCrash, verOf>>

\* Timeout in phase 1: neither copy l's invalidation nor its acknowledgement
\* is in flight any more (one was lost), so the server sends it again.
ServerResendInv(k, l) ==
    /\ InvResends
    /\ ~Idle(k) /\ l \notin acked[k]
    /\ ~\E m \in net : m.t \in {"inv", "invA"} /\ m.k = k /\ m.l = l
    /\ net' = net \cup {[t |-> "inv", k |-> k, l |-> l, rec |-> [v |-> cur[k].w, n |-> cur[k].n]]}
    /\ act' = [a |-> "ServerResendInv", k |-> k, l |-> l, n |-> cur[k].n]
    /\ UNCHANGED <<cacheVars, serverVars, pend, cntVars, linVars>>

\* A read that missed: answered from the primary copy.
ServerGet(m, d) ==
    /\ m \in net /\ m.t = "get" /\ DupOK(d)
    /\ net' = Rest(m, d)
    /\ CountDup(d)
    /\ Complete(m.c, m.k, m.id, FALSE, store[m.k].n, Genuine(m.k, store[m.k]))
    /\ act' = [a |-> "ServerGet", c |-> m.c, k |-> m.k, r |-> m.id, rec |-> store[m.k], dup |-> d]
    /\ UNCHANGED <<cacheVars, serverVars, nW, nR, nLoss, nIns, nEvict, nCrash, verOf>>

\* An agent's insertion request: answered with a fill (a phase-2 update
\* carrying the request's token), serialized with writes: only while no
\* write of the key is in phase 1 (BugFetchDuringWrite: at any time).
ServerFetch(m, d) ==
    /\ m \in net /\ m.t = "fetch" /\ DupOK(d)
    /\ Idle(m.k) \/ BugFetchDuringWrite
    /\ net' = Rest(m, d) \cup {[t |-> "upd", k |-> m.k, l |-> m.l, rec |-> store[m.k], tok |-> m.tok]}
    /\ CountDup(d)
    /\ act' = [a |-> "ServerFetch", k |-> m.k, l |-> m.l, tok |-> m.tok, rec |-> store[m.k], dup |-> d]
    /\ UNCHANGED <<cacheVars, serverVars, pend, nW, nR, nLoss, nIns, nEvict, nCrash, linVars>>

-----------------------------------------------------------------------------
(* Cache switches (data plane) *)

\* Phase 1 at copy l: invalidate (if cached) and remember the version, then
\* acknowledge (cached or not: the server waits for every layer).
\* BugRevalidateEarly: the copy takes the new record and stays valid.
CacheInv(m, d) ==
    /\ m \in net /\ m.t = "inv" /\ DupOK(d)
    /\ LET k == m.k
           l == m.l
       IN /\ IF cached[l][k]
             THEN /\ seen' = [seen EXCEPT ![l][k] = Max(@, m.rec.n)]
                  /\ IF BugRevalidateEarly
                     THEN /\ valid' = [valid EXCEPT ![l][k] = TRUE]
                          /\ crec' = [crec EXCEPT ![l][k] = m.rec]
                          /\ tok' = [tok EXCEPT ![l][k] = 0]
                     ELSE /\ valid' = [valid EXCEPT ![l][k] = FALSE]
                          /\ UNCHANGED <<crec, tok>>
             ELSE UNCHANGED <<valid, crec, seen, tok>>
          /\ net' = Rest(m, d) \cup {[t |-> "invA", k |-> k, l |-> l, n |-> m.rec.n]}
    /\ CountDup(d)
    /\ act' = [a |-> "CacheInv", k |-> m.k, l |-> m.l, n |-> m.rec.n, hit |-> cached[m.l][m.k], dup |-> d]
    /\ UNCHANGED <<cached, serverVars, pend, nW, nR, nLoss, nIns, nEvict, nCrash, linVars>>

\* Phase 2 (tok = 0) or an insertion's fill (tok /= 0) at copy l.  Taken
\* only if the copy is cached, the version is at least every version the copy
\* has seen (BugNoVersionGuard: any version), and it is the kind of update
\* the copy waits for: its own fill while it has a token, phase 2 once
\* filled (BugNoFillToken: either, always).  Taking it revalidates the copy.
Takes(l, k, m) ==
    /\ cached[l][k]
    /\ BugNoVersionGuard \/ m.rec.n >= seen[l][k]
    /\ BugNoFillToken \/ m.tok = tok[l][k]

CacheUpdate(m, d) ==
    /\ m \in net /\ m.t = "upd" /\ DupOK(d)
    /\ LET k == m.k
           l == m.l
           ok == Takes(l, k, m)
       IN /\ IF ok
             THEN /\ valid' = [valid EXCEPT ![l][k] = TRUE]
                  /\ crec' = [crec EXCEPT ![l][k] = m.rec]
                  /\ seen' = [seen EXCEPT ![l][k] = Max(@, m.rec.n)]
                  /\ tok' = [tok EXCEPT ![l][k] = 0]
             ELSE UNCHANGED <<valid, crec, seen, tok>>
          \* Two labels, so that a model can be required to take (and to refuse) one.
          /\ act' = [a |-> IF ok THEN "CacheUpdate" ELSE "CacheUpdateRefused", k |-> k, l |-> l,
                     rec |-> m.rec, tok |-> m.tok, taken |-> ok, dup |-> d]
    /\ net' = Rest(m, d)
    /\ CountDup(d)
    /\ UNCHANGED <<cached, serverVars, pend, nW, nR, nLoss, nIns, nEvict, nCrash, linVars>>

-----------------------------------------------------------------------------
(* Switch agents: insertion and eviction of the switch's own partition     *)
(* (§4.3 "Cache update"), and cache-switch failure (§4.4).                 *)

\* Insert k invalid with a fresh token, then ask k's server for the value.
CacheInsert(l, k) ==
    /\ ~cached[l][k] /\ nIns < MaxInsert
    /\ nIns' = nIns + 1
    /\ cached' = [cached EXCEPT ![l][k] = TRUE]
    /\ valid' = [valid EXCEPT ![l][k] = FALSE]
    /\ seen' = [seen EXCEPT ![l][k] = 0]
    /\ tok' = [tok EXCEPT ![l][k] = nIns + 1]
    /\ net' = net \cup {[t |-> "fetch", k |-> k, l |-> l, tok |-> nIns + 1]}
    /\ act' = [a |-> "CacheInsert", k |-> k, l |-> l, tok |-> nIns + 1]
    /\ UNCHANGED <<crec, serverVars, pend, nW, nR, nLoss, nDup, nEvict, nCrash, linVars>>

\* Evict k (no write-back needed: the server has every write).
CacheEvict(l, k) ==
    /\ cached[l][k] /\ nEvict < MaxEvict
    /\ nEvict' = nEvict + 1
    /\ cached' = [cached EXCEPT ![l][k] = FALSE]
    /\ valid' = [valid EXCEPT ![l][k] = FALSE]
    /\ act' = [a |-> "CacheEvict", k |-> k, l |-> l]
    /\ UNCHANGED <<crec, seen, tok, serverVars, pend, net, nW, nR, nLoss, nDup, nIns, nCrash, linVars>>

\* A copy that stays invalid is filled again (innet's agent, not the paper):
\* a write's phase 1 invalidates both copies, and a lost phase-2 update
\* (sent once) would leave the copy invalid, missing every read, for as
\* long as it stays cached.  The agent gives the copy a fresh token and asks
\* the server for a fill, as an insertion does, keeping what the copy has
\* seen; the server answers only between writes (ServerFetch), and the
\* fill's token and version guard it (Takes).  A phase-2 update still in
\* flight no longer matches the token and is refused, which is safe: the
\* fill carries the same record or a newer one.  The guard does not ask for
\* an invalid copy: the agent reads the copy's state over the control plane
\* and acts later, so the copy may have become valid in between (RefetchDue
\* decides when the re-fill may happen; see the hooks above).
CacheRefetch(l, k) ==
    /\ RefetchInvalid
    /\ cached[l][k] /\ nIns < MaxInsert
    /\ RefetchDue(l, k)
    /\ nIns' = nIns + 1
    /\ tok' = [tok EXCEPT ![l][k] = nIns + 1]
    /\ net' = net \cup {[t |-> "fetch", k |-> k, l |-> l, tok |-> nIns + 1]}
    /\ act' = [a |-> "CacheRefetch", k |-> k, l |-> l, tok |-> nIns + 1]
    /\ UNCHANGED <<cached, valid, crec, seen, serverVars, pend, nW, nR, nLoss, nDup, nEvict, nCrash, linVars>>

\* Cache switch s of layer l fails and is rebooted or replaced: it comes
\* back with an empty cache (its registers, seen versions and tokens are
\* gone).  Its agent refills it by insertions; tokens stay unique because
\* they are drawn from nIns, which a real agent must keep across
\* incarnations (e.g. an incarnation number in the high bits).
CacheCrash(l, s) ==
    /\ nCrash < MaxCrash
    /\ \E k \in Key : Place[l][k] = s
    /\ nCrash' = nCrash + 1
    /\ LET lost(k) == Place[l][k] = s
       IN /\ cached' = [cached EXCEPT ![l] = [k \in Key |-> IF lost(k) THEN FALSE ELSE @[k]]]
          /\ valid' = [valid EXCEPT ![l] = [k \in Key |-> IF lost(k) THEN FALSE ELSE @[k]]]
          /\ crec' = [crec EXCEPT ![l] = [k \in Key |-> IF lost(k) THEN Init0 ELSE @[k]]]
          /\ seen' = [seen EXCEPT ![l] = [k \in Key |-> IF lost(k) THEN 0 ELSE @[k]]]
          /\ tok' = [tok EXCEPT ![l] = [k \in Key |-> IF lost(k) THEN 0 ELSE @[k]]]
    /\ act' = [a |-> "CacheCrash", l |-> l, s |-> s]
    /\ UNCHANGED <<serverVars, pend, net, nW, nR, nLoss, nDup, nIns, nEvict, linVars>>

-----------------------------------------------------------------------------
(* Network faults (duplication is the d of each delivery) *)

Lose(m) ==
    /\ m \in net /\ nLoss < MaxLoss
    /\ net' = net \ {m}
    /\ nLoss' = nLoss + 1
    /\ act' = [a |-> "Lose", m |-> m]
    /\ UNCHANGED <<cacheVars, serverVars, pend, nW, nR, nDup, nIns, nEvict, nCrash, linVars>>

-----------------------------------------------------------------------------
Next ==
    \/ \E c \in Client, k \in Key :
          \/ ClientWrite(c, k)
          \/ \E l \in Layer : ClientReadHit(c, k, l) \/ ClientReadMiss(c, k, l)
    \/ \E c \in Client : ClientGiveUp(c)
    \/ \E m \in net :
          \/ ServerWrite(m) \/ Lose(m)
          \/ \E d \in BOOLEAN : ServerInvAck(m, d) \/ ServerGet(m, d) \/ ServerFetch(m, d)
                                \/ CacheInv(m, d) \/ CacheUpdate(m, d)
    \/ \E k \in Key, l \in Layer : ServerResendInv(k, l) \/ CacheInsert(l, k) \/ CacheEvict(l, k)
                                 \/ CacheRefetch(l, k)
    \/ \E l \in Layer, s \in Node : CacheCrash(l, s)

Spec == Init /\ [][Next]_vars

\* Action coverage for ./innet verify (docs/models.md, "No vacuous models"):
\* not a property.  The first time a newly found state carries an action
\* label, print it; TLC register 1 holds the labels printed so far.
ASSUME TLCSet(1, {})
ActionCoverage ==
    \/ act.a \in TLCGet(1)
    \/ /\ TLCSet(1, TLCGet(1) \cup {act.a})
       /\ PrintT(<<"innet-action", act.a>>)

-----------------------------------------------------------------------------
(* Properties *)

\* Linearizability (per key): every completed operation can be placed at or
\* after the end of its key's order as it stood when the operation was
\* invoked (strictly after for a write), and every read returns a record the
\* server made for that key.  Reads that hit a cache copy count like every
\* other read.  Done() records the first operation that cannot be placed.
Linearizable == linBad = NoBad

\* No stale copy is ever revalidated: a copy turns valid (phase 2 or an
\* insertion's fill) only with the record its server holds at that moment.
NoStaleRevalidation ==
    (act.a = "CacheUpdate" /\ act.taken) => act.rec = store[act.k]

\* Coherence of the two layers: every copy that answers reads holds exactly
\* the server's record.  Between a write's application and its phase 2 every
\* copy is invalid, so the two layers never answer with different values.
CopiesCoherent == \A l \in Layer, k \in Key : Hit(l, k) => crec[l][k] = store[k]

=============================================================================
