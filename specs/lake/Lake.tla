-------------------------------- MODULE Lake --------------------------------
(***************************************************************************)
(* LaKe (Tokusashi, Matsutani, Zilberman: "LaKe: The Power of In-Network  *)
(* Computing", ReConFig 2018) as innet implements it in p4/lake.p4: a     *)
(* NIC in front of a memcached host that answers memcached GETs from two   *)
(* cache layers (a small direct-mapped first layer, on-chip in the paper,  *)
(* and a larger second layer, the paper's on-board DRAM) and writes every  *)
(* SET through to the host.                                                *)
(*                                                                         *)
(* Actors: clients, LaKe (two layers of direct-mapped slots, a per-slot    *)
(* fill fence, a request-tag counter and the lookup table of tags it is    *)
(* waiting for), and the host's memcached (one value per key; it applies   *)
(* requests one at a time, in the order they arrive).  The network is a    *)
(* SET of messages in flight: any order, loss (budget MaxLoss).  LaKe      *)
(* handles a packet in one atomic step (one pass through its pipeline).    *)
(*                                                                         *)
(* The paper's rules, read literally (BugPaperWriteThrough), are not      *)
(* linearizable over UDP: a SET updates the layers when it passes, and     *)
(* the host may apply two concurrent SETs in the other order, so the cache *)
(* and the host disagree after both are acknowledged.  innet's LaKe       *)
(* therefore changes the layers only from the host's replies:              *)
(*  - every request LaKe forwards gets a tag (a fresh serial, carried in   *)
(*    memcached's opaque field; the lookup table maps it back to the       *)
(*    client's opaque, the key, and for a SET the value);                  *)
(*  - a reply (GET hit: the value; SET: the value from the table) installs *)
(*    the key in each layer's slot if its tag is newer than the slot's     *)
(*    fence, and otherwise invalidates the slot if it holds that key;      *)
(*    either way the fence becomes the newest tag issued so far.  A        *)
(*    request tagged after the fence was forwarded after LaKe saw the      *)
(*    reply that set it, so the host processed it after that reply's      *)
(*    request: its value is at least as new;                               *)
(*  - a reply whose tag LaKe does not hold (sent before a device reset,   *)
(*    whose table was lost) is dropped: LaKe cannot know which key it is   *)
(*    for, so it could not keep the layers coherent with it.               *)
(*                                                                         *)
(* Modelling choices (argued in docs/specs/lake.md):                       *)
(*  - a client request is handled by LaKe in the step the client sends it *)
(*    and a hit completes in that step; a host reply is handled by LaKe    *)
(*    and delivered to the client in one step;                            *)
(*  - values are write ids 1..MaxWrites, 0 is every key's initial value;   *)
(*  - tags are never reused: the implementation seeds the tag counter      *)
(*    above every tag of the previous incarnation after a reset           *)
(*    (docs/lake.md); the spec keeps one counter across resets;            *)
(*  - the lookup table is unbounded (an entry overwritten before its reply *)
(*    arrives makes LaKe drop the reply, which the model has as a loss);   *)
(*  - eviction: any valid entry may vanish at any time (budget MaxEvict);  *)
(*    with two keys, fills of one key also replace the other in a shared   *)
(*    slot.                                                                *)
(*                                                                         *)
(* History: memcached's CAS counter orders the writes: a write's version   *)
(* is the host's global modification count when it applies it.  Reads    *)
(* are judged by the version of the value they return.                    *)
(***************************************************************************)
EXTENDS Integers, FiniteSets, TLC

CONSTANTS
    Client,          \* client identifiers
    Key,             \* keys
    L1Size,          \* slots of the first layer (on-chip)
    L2Size,          \* slots of the second layer (on-board memory)
    H1, H2,          \* H1[k], H2[k]: k's slot in layer 1 and layer 2 (the data plane's hashes)
    \* ---- bounds ----
    MaxWrites,       \* total client SETs (also the largest value)
    MaxReads,        \* total client GETs
    MaxLoss,         \* messages the network may lose
    MaxEvict,        \* cache entries that may be evicted
    MaxReset,        \* device resets (all layers, fences and the lookup table lost)
    Host,            \* memcached hosts (the rack's servers)
    Owner,           \* Owner[k]: the host holding k (the clients' consistent-hash ring)
    MaxRestart,      \* memcached restarts (the host's items lost; 0: the host never loses data)
    \* ---- bug flags: each TRUE flag replaces innet's rule by a wrong one ----
    BugFillUnguarded,     \* a reply installs whatever its tag: a fill can overwrite a newer SET
    BugWriteBack,         \* SETs are absorbed by the layers (dirty) and acknowledged by LaKe;
                          \*   the host gets them only when a dirty entry is evicted
    BugPaperWriteThrough, \* the paper's rules read literally: a SET updates both layers as it
                          \*   passes, the SET reply is only relayed, a GET reply always fills
    BugAcceptUnknownTags, \* a reply whose tag LaKe does not hold (sent before a reset) is
                          \*   relayed to the client instead of dropped
    BugKeepOnReject,      \* a reply older than the fence leaves the slot alone even if the
                          \*   slot holds its key (the value there may be older than the reply's)
    BugL2AtL1Index,       \* fills write the second layer at the key's first-layer index
    BugNoForget,          \* a killed memcached starts again without the switch OS's forget
                          \*   (the seeded bug stale-restart)
    BugForgetKeepTags,    \* the forget clears the layers but keeps the lookup table: a reply
                          \*   in flight from the dead memcached fills a lost item back
    BugForgetMissL2       \* the forget clears the restarted host's first-layer slots only

ASSUME L1Size \in Nat \ {0} /\ L2Size \in Nat \ {0}
ASSUME H1 \in [Key -> 0..(L1Size - 1)] /\ H2 \in [Key -> 0..(L2Size - 1)]
ASSUME \A n \in {MaxWrites, MaxReads, MaxLoss, MaxEvict, MaxReset, MaxRestart} : n \in Nat
ASSUME Host /= {} /\ Owner \in [Key -> Host]
ASSUME \A b \in {BugFillUnguarded, BugWriteBack, BugPaperWriteThrough, BugAcceptUnknownTags,
                 BugKeepOnReject, BugL2AtL1Index, BugNoForget, BugForgetKeepTags,
                 BugForgetMissL2} :
         b \in BOOLEAN

Val    == 0..MaxWrites
Tag    == 0..(MaxWrites + MaxReads)      \* 0: no tag (never issued)
\* Versions: memcached's modifications, the SETs and (ghost) the loss of a
\* restarted host's items; the largest stands for "not applied yet".
Ver    == 0..(MaxWrites + MaxRestart + 1)
Slot   == {<<1, i>> : i \in 0..(L1Size - 1)} \cup {<<2, i>> : i \in 0..(L2Size - 1)}
SlotOf(l, k) == IF l = 1 THEN <<1, H1[k]>> ELSE <<2, H2[k]>>
NoKey  == "none"
Empty  == [k |-> NoKey, v |-> 0, dirty |-> FALSE]
Entry  == [k : Key \cup {NoKey}, v : Val, dirty : BOOLEAN]

Max(a, b) == IF a >= b THEN a ELSE b

NoOp   == [t |-> "none", k |-> NoKey, id |-> 0]
NoRead == [floor |-> 0, got |-> 0]
NoBad  == [k |-> NoKey, floor |-> 0, ver |-> 0]

VARIABLES
    \* ---- LaKe ----
    cache,     \* cache[s]: the entry in slot s (k = NoKey: empty / invalid)
    fence,     \* fence[s]: the newest tag issued when a reply last touched slot s
    serial,    \* the last tag issued
    lut,       \* the tags of forwarded requests LaKe still holds in its lookup table
    \* ---- host (memcached) ----
    store,     \* store[k]: the value memcached holds
    casCtr,    \* memcached's global CAS counter (modifications applied so far); a restart
               \*   counts as one (ghost: the real counter starts again, see HostCrash)
    hstate,    \* hstate[h]: "up", "down" (killed: its items are lost) or "forgotten"
               \*   (down, and the switch OS has made LaKe forget what came from it)
    \* ---- clients ----
    pend,      \* pend[c]: the outstanding operation (NoOp if idle)
    \* ---- network ----
    net,
    \* ---- counters ----
    nW, nR, nLoss, nEvict, nReset, nRestart,
    \* ---- history (ghost) ----
    wver,      \* wver[w]: the version (CAS) of write w once applied, 0 before
    wkey,      \* wkey[w]: the key write w was issued for
    doneMax,   \* doneMax[k]: the largest version of a write to k acknowledged to its client
    floorOf,   \* floorOf[c]: doneMax[key] when c's pending operation was invoked
    lastRead,  \* the latest completed read: floor and the version it returned
    linMax,    \* linMax[k]: the end of k's linearization order built so far
    linFloor,  \* linFloor[c]: linMax[key] when c's pending operation was invoked
    linBad,    \* NoBad, or the first completed operation that cannot be placed
    zver,      \* zver[k]: the version of "k absent": 0, or the ghost delete of k's host's
               \*   last restart (the history a client sees, docs/specs/lake.md)
    act        \* the last action and its parameters (not part of the VIEW)

lakeVars  == <<cache, fence, serial, lut>>
hostVars  == <<store, casCtr, hstate>>
cntVars   == <<nW, nR, nLoss, nEvict, nReset, nRestart>>
ghostVars == <<wver, wkey, doneMax, floorOf, lastRead, linMax, linFloor, linBad, zver>>
vars      == <<lakeVars, hostVars, pend, net, cntVars, ghostVars, act>>
viewVars  == <<lakeVars, hostVars, pend, net, cntVars, ghostVars>>

-----------------------------------------------------------------------------
(* Messages (memcached binary protocol over UDP, docs/lake.md):             *)
(*  get   GET request      LaKe -> host   c, k, id, tag                     *)
(*  set   SET request      LaKe -> host   c, k, id (= value), tag           *)
(*  getR  GET response     host -> LaKe   c, k, id, tag, v                  *)
(*  setR  SET response     host -> LaKe   c, k, id, tag                     *)
(*  wb    write-back SET   LaKe -> host   k, id (BugWriteBack only)         *)
(* k in a response stands for the key the lookup table holds for its tag.  *)
-----------------------------------------------------------------------------
Msg ==
         [t : {"get"}, c : Client, k : Key, id : 1..MaxReads, tag : Tag]
    \cup [t : {"set", "setR"}, c : Client, k : Key, id : 1..MaxWrites, tag : Tag]
    \cup [t : {"getR"}, c : Client, k : Key, id : 1..MaxReads, tag : Tag, v : Val]
    \cup [t : {"wb"}, k : Key, id : 1..MaxWrites]

OpT == [t : {"w", "r"}, k : Key, id : 1..Max(MaxWrites, MaxReads)] \cup {NoOp}

TypeOK ==
    /\ cache \in [Slot -> Entry]
    /\ fence \in [Slot -> Tag]
    /\ serial \in Tag /\ lut \subseteq Tag
    /\ store \in [Key -> Val] /\ casCtr \in 0..(MaxWrites + MaxRestart)
    /\ hstate \in [Host -> {"up", "down", "forgotten"}]
    /\ pend \in [Client -> OpT]
    /\ net \subseteq Msg
    /\ nW \in 0..MaxWrites /\ nR \in 0..MaxReads /\ nLoss \in 0..MaxLoss
    /\ nEvict \in 0..MaxEvict /\ nReset \in 0..MaxReset /\ nRestart \in 0..MaxRestart
    /\ wver \in [1..MaxWrites -> 0..(MaxWrites + MaxRestart)]
    /\ doneMax \in [Key -> Ver] /\ linMax \in [Key -> Ver] /\ zver \in [Key -> Ver]

-----------------------------------------------------------------------------
Init ==
    /\ cache = [s \in Slot |-> Empty]
    /\ fence = [s \in Slot |-> 0]
    /\ serial = 0 /\ lut = {}
    /\ store = [k \in Key |-> 0] /\ casCtr = 0
    /\ hstate = [h \in Host |-> "up"]
    /\ pend = [c \in Client |-> NoOp]
    /\ net = {}
    /\ nW = 0 /\ nR = 0 /\ nLoss = 0 /\ nEvict = 0 /\ nReset = 0 /\ nRestart = 0
    /\ wver = [w \in 1..MaxWrites |-> 0]
    /\ wkey = [w \in 1..MaxWrites |-> NoKey]
    /\ doneMax = [k \in Key |-> 0]
    /\ floorOf = [c \in Client |-> 0]
    /\ lastRead = NoRead
    /\ linMax = [k \in Key |-> 0]
    /\ linFloor = [c \in Client |-> 0]
    /\ linBad = NoBad
    /\ zver = [k \in Key |-> 0]
    /\ act = [a |-> "Init"]

-----------------------------------------------------------------------------
(* Helpers *)

\* The version a read of value v of key k returns: "absent" (0) has version 0,
\* or after a restart of k's host that of the ghost delete (zver); an applied
\* write its CAS; a write not applied yet will, if ever applied, get a CAS
\* above every version so far, so it counts as newer than all of them.
NotApplied == MaxWrites + MaxRestart + 1
VerOf(k, v) == IF v = 0 THEN zver[k] ELSE IF wver[v] = 0 THEN NotApplied ELSE wver[v]

\* The layer that answers a GET of k: the first layer if its slot holds k,
\* else the second; 0 if neither does (a miss).
HitLayer(k) == IF cache[SlotOf(1, k)].k = k THEN 1
               ELSE IF cache[SlotOf(2, k)].k = k THEN 2 ELSE 0

Invoke(c, k) == /\ floorOf' = [floorOf EXCEPT ![c] = doneMax[k]]
                /\ linFloor' = [linFloor EXCEPT ![c] = linMax[k]]
\* The operation is over: the client is idle and its floors are reset so that
\* they do not split states.
Retire(c) == /\ pend' = [pend EXCEPT ![c] = NoOp]
             /\ floorOf' = [floorOf EXCEPT ![c] = 0]
             /\ linFloor' = [linFloor EXCEPT ![c] = 0]

\* Linearizability history (as in FarReach.tla): an operation with version ver
\* invoked when k's order ended at fl must go after fl (strictly for a
\* write), and a read must return a value written to its own key.  A read of
\* a write the host has not applied yet (possible only with the bug flags;
\* CacheHoldsApplied rules it out otherwise) is not judged here: where that
\* write will be ordered is not known yet.
Judge(k, ver, isWrite, fl, v) ==
    LET placed == IF isWrite THEN ver > fl ELSE ver >= fl
        origin == isWrite \/ v = 0 \/ wkey[v] = k
    IN IF ver = NotApplied
       THEN UNCHANGED <<linMax, linBad>>
       ELSE /\ linMax' = [linMax EXCEPT ![k] = Max(@, ver)]
            /\ linBad' = IF linBad = NoBad /\ ~(placed /\ origin)
                         THEN [k |-> k, floor |-> fl, ver |-> ver] ELSE linBad

CompleteRead(c, k, v) ==
    /\ lastRead' = [floor |-> floorOf[c], got |-> VerOf(k, v)]
    /\ Judge(k, VerOf(k, v), FALSE, linFloor[c], v)
    /\ Retire(c)
    /\ UNCHANGED doneMax

CompleteWrite(c, k, ver) ==
    /\ doneMax' = [doneMax EXCEPT ![k] = Max(@, ver)]
    /\ Judge(k, ver, TRUE, linFloor[c], 0)
    /\ Retire(c)
    /\ UNCHANGED lastRead

OpMsgInFlight(c) ==
    \E m \in net : /\ m.t /= "wb" /\ m.c = c /\ m.id = pend[c].id
                   /\ (m.t \in {"set", "setR"}) = (pend[c].t = "w")

\* A forwarded request: the next tag, remembered in the lookup table.
Forward(msg) ==
    /\ serial' = serial + 1
    /\ lut' = lut \cup {serial + 1}
    /\ net' = net \cup {msg}

\* Both layers hold k = v (dirty for a write-back absorption).  A dirty entry
\* pushed out of its slot by the install is written back.
Install(k, v, dirty) ==
    LET s1 == SlotOf(1, k)
        s2 == SlotOf(2, k)
        victims == {s \in {s1, s2} : cache[s].dirty /\ cache[s].k /= k}
    IN /\ cache' = [cache EXCEPT ![s1] = [k |-> k, v |-> v, dirty |-> dirty],
                                 ![s2] = [k |-> k, v |-> v, dirty |-> dirty]]
       /\ net' = net \cup {[t |-> "wb", k |-> cache[s].k, id |-> cache[s].v] : s \in victims}

-----------------------------------------------------------------------------
(* Clients.  LaKe handles a request in the step the client sends it.         *)

\* A SET goes to the host with a fresh tag (write-through).  With
\* BugPaperWriteThrough it also updates both layers on its way; with
\* BugWriteBack the layers absorb it and LaKe acknowledges it at once.
ClientSet(c, k) ==
    /\ pend[c] = NoOp /\ nW < MaxWrites
    /\ LET w == nW + 1
       IN /\ nW' = w
          /\ wkey' = [wkey EXCEPT ![w] = k]
          /\ IF BugWriteBack
             THEN \* the write takes effect in the cache: it gets its version now
                  /\ casCtr' = casCtr + 1
                  /\ wver' = [wver EXCEPT ![w] = casCtr + 1]
                  /\ Install(k, w, TRUE)
                  /\ fence' = [s \in Slot |-> IF s \in {SlotOf(1, k), SlotOf(2, k)}
                                              THEN serial ELSE fence[s]]
                  /\ doneMax' = [doneMax EXCEPT ![k] = Max(@, casCtr + 1)]
                  /\ LET fl == linMax[k]
                     IN /\ linMax' = [linMax EXCEPT ![k] = Max(@, casCtr + 1)]
                        /\ linBad' = IF linBad = NoBad /\ ~(casCtr + 1 > fl)
                                     THEN [k |-> k, floor |-> fl, ver |-> casCtr + 1]
                                     ELSE linBad
                  /\ UNCHANGED <<pend, serial, lut, lastRead, floorOf, linFloor>>
             ELSE /\ Forward([t |-> "set", c |-> c, k |-> k, id |-> w, tag |-> serial + 1])
                  /\ pend' = [pend EXCEPT ![c] = [t |-> "w", k |-> k, id |-> w]]
                  /\ Invoke(c, k)
                  /\ IF BugPaperWriteThrough
                     THEN cache' = [s \in Slot |-> IF s \in {SlotOf(1, k), SlotOf(2, k)}
                                                   THEN [k |-> k, v |-> w, dirty |-> FALSE]
                                                   ELSE cache[s]]
                     ELSE UNCHANGED cache
                  /\ UNCHANGED <<casCtr, wver, fence, doneMax, linMax, linBad, lastRead>>
          /\ act' = [a |-> "ClientSet", c |-> c, k |-> k, w |-> w]
    /\ UNCHANGED <<store, hstate, nR, nLoss, nEvict, nReset, nRestart, zver>>

\* A GET that hits is answered by LaKe from the first layer that holds the key.
ClientGetHit(c, k) ==
    /\ pend[c] = NoOp /\ nR < MaxReads
    /\ HitLayer(k) /= 0
    /\ LET v == cache[SlotOf(HitLayer(k), k)].v
       IN /\ nR' = nR + 1
          /\ lastRead' = [floor |-> doneMax[k], got |-> VerOf(k, v)]
          /\ Judge(k, VerOf(k, v), FALSE, linMax[k], v)
          /\ act' = [a |-> "ClientGetHit", via |-> IF HitLayer(k) = 1 THEN "HitL1" ELSE "HitL2",
                     c |-> c, k |-> k, r |-> nR + 1, v |-> v]
    /\ UNCHANGED <<lakeVars, hostVars, pend, net, nW, nLoss, nEvict, nReset, nRestart,
                   wver, wkey, doneMax, floorOf, linFloor, zver>>

\* A GET that misses both layers goes to the host with a fresh tag.
ClientGetMiss(c, k) ==
    /\ pend[c] = NoOp /\ nR < MaxReads
    /\ HitLayer(k) = 0
    /\ LET r == nR + 1
       IN /\ nR' = r
          /\ Forward([t |-> "get", c |-> c, k |-> k, id |-> r, tag |-> serial + 1])
          /\ pend' = [pend EXCEPT ![c] = [t |-> "r", k |-> k, id |-> r]]
          /\ Invoke(c, k)
          /\ act' = [a |-> "ClientGetMiss", c |-> c, k |-> k, r |-> r]
    /\ UNCHANGED <<cache, fence, hostVars, nW, nLoss, nEvict, nReset, nRestart,
                   wver, wkey, doneMax, lastRead, linMax, linBad, zver>>

\* Timeout: nothing of the operation is in flight any more.
ClientGiveUp(c) ==
    /\ pend[c] /= NoOp
    /\ ~OpMsgInFlight(c)
    /\ Retire(c)
    /\ act' = [a |-> "ClientGiveUp", c |-> c]
    /\ UNCHANGED <<lakeVars, hostVars, net, cntVars, wver, wkey, doneMax, lastRead,
                   linMax, linBad, zver>>

-----------------------------------------------------------------------------
(* The host: memcached applies each request as it arrives.                   *)

\* Only a running memcached handles requests (requests to a killed one wait in
\* the network, or are dropped by DeadHostDrop).
HostUp(k) == hstate[Owner[k]] = "up"

HostSet(m) ==
    /\ m \in net /\ m.t = "set" /\ HostUp(m.k)
    /\ store' = [store EXCEPT ![m.k] = m.id]
    /\ casCtr' = casCtr + 1
    /\ wver' = [wver EXCEPT ![m.id] = casCtr + 1]
    /\ net' = (net \ {m}) \cup {[t |-> "setR", c |-> m.c, k |-> m.k, id |-> m.id, tag |-> m.tag]}
    /\ act' = [a |-> "HostSet", c |-> m.c, k |-> m.k, w |-> m.id, tag |-> m.tag]
    /\ UNCHANGED <<lakeVars, hstate, pend, cntVars, wkey, doneMax, floorOf, lastRead, linMax,
                   linFloor, linBad, zver>>

HostGet(m) ==
    /\ m \in net /\ m.t = "get" /\ HostUp(m.k)
    /\ net' = (net \ {m}) \cup {[t |-> "getR", c |-> m.c, k |-> m.k, id |-> m.id,
                                 tag |-> m.tag, v |-> store[m.k]]}
    /\ act' = [a |-> "HostGet", c |-> m.c, k |-> m.k, r |-> m.id, tag |-> m.tag,
               v |-> store[m.k]]
    /\ UNCHANGED <<lakeVars, hostVars, pend, cntVars, ghostVars>>

\* BugWriteBack: a written-back value (its version was given at absorption).
HostWriteBack(m) ==
    /\ m \in net /\ m.t = "wb" /\ HostUp(m.k)
    /\ store' = [store EXCEPT ![m.k] = m.id]
    /\ net' = net \ {m}
    /\ act' = [a |-> "HostWriteBack", k |-> m.k, w |-> m.id]
    /\ UNCHANGED <<lakeVars, casCtr, hstate, pend, cntVars, ghostVars>>

-----------------------------------------------------------------------------
(* LaKe: the host's replies, relayed to the client in the same step.        *)

\* The rule for one layer's slot s of key k, given a reply with tag t and
\* value v: install if the tag is newer than the fence, else invalidate the
\* slot if it holds k; the fence becomes the newest tag issued.
ReplySlot(s, k, t, v) ==
    IF BugFillUnguarded \/ BugPaperWriteThrough \/ t > fence[s] THEN [k |-> k, v |-> v, dirty |-> FALSE]
    ELSE IF cache[s].k = k /\ ~BugKeepOnReject THEN Empty ELSE cache[s]

Known(m) == m.tag \in lut

LakeReply(m) ==
    /\ m \in net /\ m.t \in {"getR", "setR"}
    /\ LET k == m.k
           v == IF m.t = "getR" THEN m.v ELSE m.id
           s1 == SlotOf(1, k)
           s2 == IF BugL2AtL1Index THEN <<2, H1[k]>> ELSE SlotOf(2, k)
           touched == {s1, s2}
           relay == Known(m) \/ BugAcceptUnknownTags
           fill == Known(m) /\ ~(BugPaperWriteThrough /\ m.t = "setR")
       IN /\ net' = net \ {m}
          /\ lut' = lut \ {m.tag}
          /\ IF fill
             THEN /\ cache' = [s \in Slot |-> IF s \in touched
                                              THEN ReplySlot(s, k, m.tag, v) ELSE cache[s]]
                  /\ fence' = [s \in Slot |-> IF s \in touched
                                              THEN Max(fence[s], serial) ELSE fence[s]]
             ELSE UNCHANGED <<cache, fence>>
          /\ IF relay /\ pend[m.c].id = m.id /\ pend[m.c].t = (IF m.t = "getR" THEN "r" ELSE "w")
             THEN IF m.t = "getR" THEN CompleteRead(m.c, k, v)
                                  ELSE CompleteWrite(m.c, k, wver[m.id])
             ELSE UNCHANGED <<pend, doneMax, lastRead, linMax, linBad, floorOf, linFloor>>
          /\ act' = [a |-> "LakeReply",
                     via |-> IF ~Known(m) THEN IF relay THEN "RelayUnknownReply" ELSE "DropUnknownReply"
                             ELSE IF m.t = "getR" THEN "FillFromGet" ELSE "FillFromSet",
                     c |-> m.c, k |-> k, id |-> m.id, tag |-> m.tag, v |-> v]
    /\ UNCHANGED <<serial, hostVars, cntVars, wver, wkey, zver>>

\* Replacement: a valid entry leaves its slot (a key outside the model took
\* it).  A dirty one is written back (BugWriteBack).
Evict(s) ==
    /\ nEvict < MaxEvict /\ cache[s].k /= NoKey
    /\ nEvict' = nEvict + 1
    /\ cache' = [cache EXCEPT ![s] = Empty]
    /\ net' = IF cache[s].dirty THEN net \cup {[t |-> "wb", k |-> cache[s].k, id |-> cache[s].v]}
              ELSE net
    /\ act' = [a |-> "Evict", slot |-> s, k |-> cache[s].k]
    /\ UNCHANGED <<fence, serial, lut, hostVars, pend, nW, nR, nLoss, nReset, nRestart, ghostVars>>

\* Device reset: every register is lost, layers, fences and lookup table alike.
\* Tags stay unique (the control plane seeds the counter, see the header).
Reset ==
    /\ nReset < MaxReset
    /\ nReset' = nReset + 1
    /\ cache' = [s \in Slot |-> Empty]
    /\ fence' = [s \in Slot |-> 0]
    /\ lut' = {}
    /\ act' = [a |-> "Reset"]
    /\ UNCHANGED <<serial, hostVars, pend, net, nW, nR, nLoss, nEvict, nRestart, ghostVars>>

Lose(m) ==
    /\ m \in net /\ nLoss < MaxLoss
    /\ nLoss' = nLoss + 1
    /\ net' = net \ {m}
    /\ act' = [a |-> "Lose", m |-> m]
    /\ UNCHANGED <<lakeVars, hostVars, pend, nW, nR, nEvict, nReset, nRestart, ghostVars>>

-----------------------------------------------------------------------------
(* memcached restarts (docs/lake.md, "How the checker treats a memcached    *)
(* kill").  memcached keeps items in memory only: a killed memcached has    *)
(* lost every item of its host, and starts again empty.  A client's history *)
(* sees this as a DELETE of each key the host holds, invoked when memcached *)
(* died and acknowledged when it is back (the live campaign records exactly *)
(* that, campaign.Wipes); the spec gives that ghost delete a version (zver) *)
(* when memcached dies and acknowledges it when memcached starts again, so  *)
(* ReadsNotStale and Linearizable hold LaKe to it unweakened: a read        *)
(* invoked after the restart must not return a value the restart lost.      *)
(* Before memcached starts again, the switch OS makes LaKe forget what came *)
(* from it (SwitchForget, LakeSwitchOs.forgetServer; the live harness       *)
(* refuses the restart without a controller that answers).                 *)

\* memcached on host h is killed: its items are lost (the store of its keys
\* is "absent").  The ghost delete of each of h's keys takes effect here
\* (versions are per key, so the keys share one); it is acknowledged by
\* HostStart.  casCtr stands for memcached's CAS counter and the version
\* order: the real counter starts again at 0, which no rule of LaKe reads.
HostCrash(h) ==
    /\ nRestart < MaxRestart /\ hstate[h] = "up"
    /\ nRestart' = nRestart + 1
    /\ hstate' = [hstate EXCEPT ![h] = "down"]
    /\ store' = [k \in Key |-> IF Owner[k] = h THEN 0 ELSE store[k]]
    /\ casCtr' = casCtr + 1
    /\ zver' = [k \in Key |-> IF Owner[k] = h THEN casCtr + 1 ELSE zver[k]]
    /\ act' = [a |-> "HostCrash", h |-> h]
    /\ UNCHANGED <<lakeVars, pend, net, nW, nR, nLoss, nEvict, nReset,
                   wver, wkey, doneMax, floorOf, lastRead, linMax, linFloor, linBad>>

\* A request reaching a memcached that is down is gone (its client times
\* out: a GET is retried, a SET ends unknown).
DeadHostDrop(m) ==
    /\ m \in net /\ m.t \in {"get", "set"} /\ ~HostUp(m.k)
    /\ net' = net \ {m}
    /\ act' = [a |-> "DeadHostDrop", m |-> m]
    /\ UNCHANGED <<lakeVars, hostVars, pend, cntVars, ghostVars>>

\* The slots the forget of host h clears: those holding a key h owns (the
\* control plane reads the slots' keys and asks the ring; BugForgetMissL2
\* reads the first layer only).
ForgetsSlot(s, h) ==
    /\ cache[s].k /= NoKey /\ Owner[cache[s].k] = h
    /\ ~(BugForgetMissL2 /\ s[1] = 2)

\* The switch OS, before memcached on h starts again: every slot holding a key
\* of h is invalidated, and every lookup-table entry is cleared, so a reply
\* still in flight from the dead memcached matches no tag and is dropped
\* (LakeReply's DropUnknownReply) instead of filling a lost item back in.
\* Clearing the whole table also drops replies of other hosts' requests: only
\* lost replies (clients time out), never a wrong fill.  Fences and the tag
\* counter stay: tags issued later are above every fence, so they fill.
SwitchForget(h) ==
    /\ hstate[h] = "down" /\ ~BugNoForget
    /\ hstate' = [hstate EXCEPT ![h] = "forgotten"]
    /\ cache' = [s \in Slot |-> IF ForgetsSlot(s, h) THEN Empty ELSE cache[s]]
    /\ lut' = IF BugForgetKeepTags THEN lut ELSE {}
    /\ act' = [a |-> "SwitchForget", h |-> h]
    /\ UNCHANGED <<fence, serial, store, casCtr, pend, net, cntVars, ghostVars>>

\* memcached on h starts again, empty, once the switch has forgotten (at once
\* with BugNoForget).  The ghost deletes of h's keys are acknowledged now.
HostStart(h) ==
    /\ \/ hstate[h] = "forgotten"
       \/ BugNoForget /\ hstate[h] = "down"
    /\ hstate' = [hstate EXCEPT ![h] = "up"]
    /\ doneMax' = [k \in Key |-> IF Owner[k] = h THEN Max(doneMax[k], zver[k]) ELSE doneMax[k]]
    \* the delete is always placeable: its version is above every version of
    \* its key when memcached died, and no write to the key is applied while
    \* memcached is down
    /\ linMax' = [k \in Key |-> IF Owner[k] = h THEN Max(linMax[k], zver[k]) ELSE linMax[k]]
    /\ act' = [a |-> "HostStart", h |-> h]
    /\ UNCHANGED <<lakeVars, store, casCtr, pend, net, cntVars, wver, wkey, floorOf,
                   lastRead, linFloor, linBad, zver>>

-----------------------------------------------------------------------------
Next ==
    \/ \E c \in Client, k \in Key : ClientSet(c, k) \/ ClientGetHit(c, k) \/ ClientGetMiss(c, k)
    \/ \E c \in Client : ClientGiveUp(c)
    \/ \E m \in net : HostSet(m) \/ HostGet(m) \/ HostWriteBack(m) \/ LakeReply(m) \/ Lose(m)
                      \/ DeadHostDrop(m)
    \/ \E s \in Slot : Evict(s)
    \/ Reset
    \/ \E h \in Host : HostCrash(h) \/ SwitchForget(h) \/ HostStart(h)

Spec == Init /\ [][Next]_vars

\* Action coverage for ./innet verify (docs/models.md, as in FarReach.tla).
\* act.a names the action of Next (what the conformance replay dispatches on
\* and counts); act.via, where present, the case taken (the layer that
\* answered a hit, what a reply did), which is what coverage records.
ASSUME TLCSet(1, {})
CoverageLabel == IF "via" \in DOMAIN act THEN act.via ELSE act.a
ActionCoverage ==
    \/ CoverageLabel \in TLCGet(1)
    \/ /\ TLCSet(1, TLCGet(1) \cup {CoverageLabel})
       /\ PrintT(<<"innet-action", CoverageLabel>>)

-----------------------------------------------------------------------------
(* Properties *)

\* The issue's invariant: a read never returns a value older than a SET to
\* the same key that was acknowledged before the read began.
ReadsNotStale == lastRead.got >= lastRead.floor

\* Linearizability per key (see Judge): stronger, it also orders reads after
\* earlier reads and checks where a value came from.
Linearizable == linBad = NoBad

\* Structural: LaKe only serves values memcached has applied (or, with
\* write-back, values the layers absorbed): no read sees a SET that may still
\* be lost on its way to the host.
CacheHoldsApplied ==
    \A s \in Slot : cache[s].k /= NoKey => (cache[s].v = 0 \/ wver[cache[s].v] > 0)

\* Structural: an entry sits in the slot its key hashes to in that layer.
EntriesInTheirSlots ==
    \A s \in Slot : cache[s].k /= NoKey => SlotOf(s[1], cache[s].k) = s

=============================================================================
