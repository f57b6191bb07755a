---------------------------- MODULE PegasusChain ----------------------------
(***************************************************************************)
(* Pegasus beyond a single rack (S7 of the Pegasus paper, OSDI'20): a key  *)
(* is replicated by chain replication across racks 1..NRacks (rack 1 the   *)
(* head, rack NRacks the tail), and inside each rack a Pegasus switch may  *)
(* replicate it further (Pegasus.tla's Algorithms 1 and 2).                *)
(*                                                                         *)
(* Writes enter at the head rack, whose switch stamps the version; every   *)
(* server that executes a write forwards it to the next rack; the next     *)
(* rack's switch keeps the version it carries and only raises its own      *)
(* ver_next past it; tail servers reply to the client.  Reads go to the    *)
(* tail rack.  Links between racks, and between each switch and its        *)
(* servers, lose, duplicate and reorder packets: the chain cannot assume   *)
(* the reliable FIFO channels of classic chain replication, which is why   *)
(* S7 reuses the head switch's versions.                                   *)
(*                                                                         *)
(* The paper's sentence says the switch stamps ver_next "only if VER in    *)
(* the packet header is not null"; that is inverted (a client write has    *)
(* no version yet), and it is read here as "only if VER is null".          *)
(*                                                                         *)
(* One key; client write retries and at-most-once when a model allows    *)
(* them (MaxRetry, EnableAtMostOnce; see below).  Rack failures and the    *)
(* configuration service's reconfiguration (S7,                            *)
(* "Reconfiguring the Chains") are modelled when a model allows them       *)
(* (MaxRackFail > 0): a rack crashes (RackFail), and the service removes   *)
(* it from the chain once the writes it passed down have arrived           *)
(* (Reconfigure); the next rack may become head, the previous one tail.    *)
(* No rack is added back or replaced.  The tail's controller (directories  *)
(* live at the tail only) may add the key to its directory (AddKeyAtTail), *)
(* mark it for removal (MarkRemoveAtTail; the key leaves on a home reply   *)
(* at or above the mark) and issue a virtual write (VirtualWriteAtTail,    *)
(* ServerVirtualWrite), each when a model allows it; the tail's switch may *)
(* stamp versions of the keys its rack heads (TailStampsOther), which is   *)
(* what made AddKey's ver_completed = ver_next - 1 wrong in a tail (found  *)
(* by the simulator; docs/pegasus.md "Across racks").  At-most-once uses   *)
(* each rack's home as its detector (no detector chosen by request id, no  *)
(* forwarding to replicas, no table migration), and no read retries.       *)
(***************************************************************************)
EXTENDS Naturals, FiniteSets
LOCAL TLCm == INSTANCE TLC

CONSTANTS
  NRacks,       \* racks in the chain 1..NRacks; 1 is the head, NRacks the tail
  NServers,     \* servers per rack 1..NServers; server 1 is the key's home in each rack
  Replicated,   \* whether the key is in every rack's directory (rkeys) from the start
  AddAtTail,    \* whether the tail's controller may add the key to its directory
  NOtherStamps, \* versions the tail's switch stamps for keys its own rack heads
  NWrites,      \* client writes 1..NWrites; write w writes value w
  NReads,       \* client reads 1..NReads
  MaxDup,       \* how many times the network may duplicate a packet
  MaxLoss,      \* how many packets the network may drop
  \* Buggy variants (each must be refuted by TLC):
  BugRestamp,   \* every rack's switch stamps its own ver_next (plain Alg. 1)
  BugNoBump,    \* downstream switches do not raise ver_next past a passing version
  BugAddAtVerNext \* AddKeyAtTail sets ver_completed = ver_next - 1 (one rack's rule)

(***************************************************************************)
(* Rack failures (S7 "Reconfiguring the Chains").  Defined here with the   *)
(* values of the protocol without failures; a failure model's .cfg         *)
(* overrides them (Name = value), so the older models' .cfgs are as they   *)
(* were.                                                                   *)
(***************************************************************************)
MaxRackFail == 0            \* how many racks may crash (the last live rack never does)
BugReconfigNoDrain == FALSE \* BUG: the service removes a failed rack without waiting for
                            \* the writes it passed down to reach the next rack

(***************************************************************************)
(* The tail's controller: MarkRemove and virtual writes (S6.3), defined    *)
(* here with the values of the protocol without them (as above: a model's  *)
(* .cfg overrides them, the older .cfgs are as they were).                 *)
(***************************************************************************)
MaxRemove == 0      \* how many times the tail's controller may mark the key for removal
MaxVW == 0          \* how many virtual writes the tail's controller may issue
BugMarkAtHome == FALSE  \* BUG: the tail's mark is home's version + 1, not the tail's ver_next
BugVWNoDrain == FALSE   \* the virtual write does not wait for the tail's writes to drain
BugVWHomeStale == FALSE \* BUG: a virtual write also while home is not in the tail's rset

(***************************************************************************)
(* Ending a stuck removal (issue 16; docs/specs/pegasus.md section 11).   *)
(* Under at-most-once a key marked at M can stay in the directory for     *)
(* ever: a retry stamped >= M goes home, home's detector answers it with  *)
(* the recorded version (< M), and no later write comes.  The fix: the    *)
(* tail's controller rewrites the key under the transition pause          *)
(* (RemovalRewriteAtTail): with the key's writes paused and drained, it   *)
(* reads the rack's newest copy and has the switch stamp a rewrite of it  *)
(* with ver_next (>= M), which home applies and answers: the removal rule *)
(* sees a home reply at or above the mark.  The rewrite stamps the key's  *)
(* versions, so only a tail that is also the head issues it.  Defined     *)
(* here with the protocol's values without it (a .cfg overrides them).    *)
(***************************************************************************)
MaxRewrite == 0            \* how many removal rewrites the tail's controller may issue
BugRewriteUncond == FALSE  \* BUG: the obvious fix: no pause or drain, home relabels its
                           \* own value with the fresh stamp whatever it holds
BugRewriteNoDrain == FALSE \* BUG: no pause or drain, home applies the rewrite only if it
                           \* still holds the version the controller read (the condition)
BugRewriteHomeCopy == FALSE \* BUG: under the pause, but the rewrite carries home's copy,
                            \* not the rack's newest

(***************************************************************************)
(* Client write retries and at-most-once across the chain (S6.4 with S7,   *)
(* as the implementation's PegasusServer does it), defined here with the   *)
(* values of the protocol without them (a model's .cfg overrides them).    *)
(* With EnableAtMostOnce every rack's switch sends the key's writes to its *)
(* home, the rack's detector, which keeps a client table: a request it has *)
(* recorded is neither executed nor applied again; a non-tail detector     *)
(* passes it down again under the recorded version (it may have been lost  *)
(* further down), the tail's answers the client with it.                   *)
(***************************************************************************)
MaxRetry == 0              \* how many times clients may resend a pending write
EnableAtMostOnce == FALSE  \* detectors (home in every rack) and their client tables
BugIgnoreTable == FALSE    \* BUG: a detector executes a recorded request again
BugPassDownFresh == FALSE  \* BUG: a non-tail detector passes a recorded request down
                           \* under the retry's fresh stamp, not the recorded version
\* Executions are recorded (detExecs) only in models that retry or detect,
\* so the other models' state spaces are as they were.
TrackExecs == EnableAtMostOnce \/ MaxRetry > 0

Racks   == 1..NRacks
Servers == 1..NServers
Home    == 1
WIds    == 1..NWrites
RIds    == 1..NReads
Vals    == 0..NWrites

ASSUME NRacks \in Nat \ {0} /\ NServers \in Nat \ {0}
ASSUME \A n \in {NWrites, NReads, MaxDup, MaxLoss, NOtherStamps} : n \in Nat
ASSUME \A b \in {Replicated, AddAtTail, BugRestamp, BugNoBump, BugAddAtVerNext} : b \in BOOLEAN

\* A bound on versions, used only by TypeOK: one stamp per write, or with
\* BugRestamp one per write, rack and duplicate; a retry is stamped afresh.
MaxVer == (NWrites + MaxRetry) * (MaxDup + 1) * NRacks + NOtherStamps + MaxRewrite
Vers   == 0..MaxVer

Max(a, b) == IF a >= b THEN a ELSE b
SetMin(S) == CHOOSE x \in S : \A y \in S : x <= y
SetMax(S) == CHOOSE x \in S : \A y \in S : y <= x

VARIABLES
  verNext,      \* rack -> that switch's ver_next
  rset,         \* rack -> its directory's replica set for the key
  verCompleted, \* rack -> its directory's ver_completed for the key
  store,        \* rack -> server -> [val, ver]
  net,          \* in-flight packets (inside racks and between racks)
  used,         \* fault budgets consumed
  wr,           \* history: write id -> [st, floor, ver]
  rd,           \* history: read id -> [st, floor, val, ver]
  hvOf,         \* history: write id -> the version the head switch stamped (0: none yet)
  lastHv,       \* history: rack -> server -> head version of the last write it applied
  inversions,   \* history: servers that applied a write with a lower head version than one before
  execs,        \* history: set of <<w, ver>> applied at the tail
  extVer,       \* history: highest version the tail switch has externalized
  tailRepl,     \* whether the key is in the tail's directory (Replicated, or added)
  otherStamps,  \* versions the tail's switch has stamped for other keys
  liveRacks,    \* configuration service: the racks in the chain (ChainView.liveRacks)
  failedRacks,  \* racks that have crashed (noticed by the service or not)
  tailMark,     \* the tail's removal mark: 0, or its ver_next when the key was marked (S6.3)
  ctab,         \* rack -> its detector's client table: set of <<write id, version executed>>
  detExecs,     \* history: set of <<rack, write id, version>> a server executed (TrackExecs)
  act           \* the last action and its parameters (for traces; not in VIEW)

vars == <<verNext, rset, verCompleted, store, net, used, wr, rd, hvOf, lastHv,
          inversions, execs, extVer, tailRepl, otherStamps, liveRacks, failedRacks,
          tailMark, ctab, detExecs, act>>

\* The chain in the service's current view: its first live rack is the head,
\* its last the tail, and a rack passes writes to the next live rack.  Clients
\* and servers use the current view (the service's announcement is taken as
\* instantaneous; a node with an older view could only send to a crashed rack,
\* which is a loss).  Without failures: 1, NRacks and r + 1.
HeadRack == SetMin(liveRacks)
Tail     == SetMax(liveRacks)
NextRack(r) == SetMin({q \in liveRacks : q > r})
Up(r) == r \notin failedRacks

\* Whether rack r's directory holds the key: the tail's may change (AddKeyAtTail).
IsRepl(r) == IF r = Tail THEN tailRepl ELSE Replicated

\* Whether rack r's directory has the key marked for removal (only the tail's
\* controller marks, S6.3): its writes then go home.
Marked(r) == r = Tail /\ tailMark # 0

(***************************************************************************)
(* Hooks for the liveness models (PegasusChainLive.tla; docs/specs/        *)
(* pegasus.md section 10).  Each is the protocol's rule, used by the       *)
(* actions below; a liveness model's .cfg may replace one (Hook <- Other)  *)
(* by a client policy or a buggy rule, every other model unchanged.        *)
(*   RetryDue(w)          - when a client may resend pending write w: at   *)
(*                          any time (a retry may race its first copy).    *)
(*   ReconfigDrained(f)   - when the service may remove crashed rack f: f  *)
(*                          is the tail, or no stamped write f passed down *)
(*                          is still on its way to the next rack           *)
(*                          (ChainConfigService's drain time).             *)
(*   PassTarget(r)        - where a server of rack r passes an executed    *)
(*                          write: the next rack of the current view, or 0 *)
(*                          (the client: r is the tail).                   *)
(*   PassOnRecorded(r)    - whether a non-tail detector passes a request   *)
(*                          its client table records down again (S6.4     *)
(*                          with S7: the copy passed down may be lost).    *)
(*   TailRemovalCovers(v, mark) - whether a home WRITE-REPLY of version v  *)
(*                          ends the removal of a key marked at mark.      *)
(***************************************************************************)
RetryDue(w) == TRUE
\* (IF, not \/: TLC splits an action's disjunctions, and NextRack(Tail) is empty.)
ReconfigDrained(f) ==
  IF f = Tail THEN TRUE
  ELSE ~\E m \in net : m.t = "CWREQ" /\ m.rack = NextRack(f) /\ m.ver # 0
PassTarget(r) == IF r = Tail THEN 0 ELSE NextRack(r)
PassOnRecorded(r) == TRUE
TailRemovalCovers(v, mark) == v >= mark

-----------------------------------------------------------------------------
(* Packets.  CWREQ: a write arriving at rack r's switch (from the client,  *)
(* or forwarded by a server of rack r - 1); ver = 0 means not stamped.     *)
(* WREQ: a write on its way from rack r's switch to server d.  Writes      *)
(* carry hv, the head's stamp, as a ghost field used only by the checks.   *)
CWReq(w, r, v, hv)    == [t |-> "CWREQ", w |-> w, rack |-> r, ver |-> v, hv |-> hv]
WReq(w, r, v, hv, d)  == [t |-> "WREQ", w |-> w, rack |-> r, ver |-> v, hv |-> hv, dst |-> d]
WRep(w, v, s)         == [t |-> "WREP", w |-> w, ver |-> v, src |-> s]
RReq(x, d)            == [t |-> "RREQ", r |-> x, dst |-> d]
RRep(x, val, v, s)    == [t |-> "RREP", r |-> x, val |-> val, ver |-> v, src |-> s]

TypeOK ==
  /\ verNext \in [Racks -> 1..(MaxVer + 1)]
  /\ rset \in [Racks -> SUBSET Servers]
  /\ verCompleted \in [Racks -> Vers]
  /\ store \in [Racks -> [Servers -> [val : Vals, ver : Vers]]]
  /\ used \in [dup : Nat, loss : Nat, rem : Nat, vw : Nat, retry : Nat, rw : Nat]
  /\ wr \in [WIds -> [st : {"idle", "pend", "done"}, floor : Vers, ver : Vers]]
  /\ rd \in [RIds -> [st : {"idle", "pend", "done"}, floor : Vers, val : Vals, ver : Vers]]
  /\ hvOf \in [WIds -> Vers]
  /\ lastHv \in [Racks -> [Servers -> Vers]]
  /\ inversions \subseteq Racks \X Servers
  /\ execs \subseteq WIds \X Vers
  /\ extVer \in Vers
  /\ tailRepl \in BOOLEAN
  /\ otherStamps \in 0..NOtherStamps
  /\ liveRacks \in (SUBSET Racks) \ {{}}
  /\ failedRacks \subseteq Racks
  /\ tailMark \in 0..(MaxVer + 1)
  /\ ctab \in [Racks -> SUBSET (WIds \X Vers)]
  /\ detExecs \subseteq Racks \X WIds \X Vers

\* Real-time floor at the tail, as in Pegasus.tla.
Floor ==
  LET vs == {wr[w].ver : w \in {x \in WIds : wr[x].st = "done"}}
            \cup {rd[x].ver : x \in {y \in RIds : rd[y].st = "done"}}
  IN IF vs = {} THEN 0 ELSE CHOOSE v \in vs : \A u \in vs : u <= v

Effective == execs \cup {<<w, wr[w].ver>> : w \in {x \in WIds : wr[x].st = "done"}}

ValueAt(v) ==
  LET E == {e \in Effective : e[2] <= v}
  IN IF E = {} THEN 0 ELSE (CHOOSE e \in E : \A f \in E : f[2] <= e[2])[1]

DupChoices == IF used.dup < MaxDup THEN BOOLEAN ELSE {FALSE}
Remaining(m, dup) == IF dup THEN net ELSE net \ {m}
CountDup(dup) == IF dup THEN [used EXCEPT !.dup = @ + 1] ELSE used

-----------------------------------------------------------------------------
Init ==
  /\ verNext = [r \in Racks |-> 1]
  /\ rset = [r \in Racks |-> IF Replicated THEN {Home} ELSE {}]
  /\ verCompleted = [r \in Racks |-> 0]
  /\ store = [r \in Racks |-> [s \in Servers |-> [val |-> 0, ver |-> 0]]]
  /\ net = {}
  /\ used = [dup |-> 0, loss |-> 0, rem |-> 0, vw |-> 0, retry |-> 0, rw |-> 0]
  /\ wr = [w \in WIds |-> [st |-> "idle", floor |-> 0, ver |-> 0]]
  /\ rd = [x \in RIds |-> [st |-> "idle", floor |-> 0, val |-> 0, ver |-> 0]]
  /\ hvOf = [w \in WIds |-> 0]
  /\ lastHv = [r \in Racks |-> [s \in Servers |-> 0]]
  /\ inversions = {}
  /\ execs = {}
  /\ extVer = 0
  /\ tailRepl = Replicated
  /\ otherStamps = 0
  /\ liveRacks = {r : r \in Racks}   \* (enumerated: trace readers do not parse 1..n)
  /\ failedRacks = {}
  /\ tailMark = 0
  /\ ctab = [r \in Racks |-> {}]
  /\ detExecs = {}
  /\ act = [a |-> "Init"]

-----------------------------------------------------------------------------
(* A client sends write w to the head rack (S7: "clients send WRITES to    *)
(* the head server in the chain"); it reaches the head switch unstamped.   *)
(* The head is the first rack of the current view; if it has crashed and   *)
(* the service has not removed it yet, the write waits there and is lost   *)
(* with the rack.                                                          *)
IssueWrite(w) ==
  /\ wr[w].st = "idle"
  /\ IF w = 1 THEN TRUE ELSE wr[w - 1].st # "idle"
  /\ wr' = [wr EXCEPT ![w] = [st |-> "pend", floor |-> Floor, ver |-> 0]]
  /\ net' = net \cup {CWReq(w, HeadRack, 0, 0)}
  /\ act' = [a |-> "IssueWrite", w |-> w]
  /\ UNCHANGED <<ctab, detExecs, verNext, rset, verCompleted, store, used, rd, hvOf, lastHv,
                 inversions, execs, extVer, tailRepl, otherStamps, liveRacks, failedRacks, tailMark>>

(***************************************************************************)
(* A rack's switch handles a WRITE (Alg. 1 as augmented in S7): an         *)
(* unstamped write gets ver_next++; a stamped one keeps its version and    *)
(* ver_next is raised to one above it if it is not already.  Then the      *)
(* write goes to its home server or, if the key is replicated, to any      *)
(* non-empty set of the rack's servers (S6.2.1); a key the tail has marked *)
(* for removal goes home (S6.3).                                           *)
(***************************************************************************)
SwitchWrite(m) ==
  /\ m \in net
  /\ m.t = "CWREQ"
  /\ Up(m.rack)
  /\ \E dup \in DupChoices :
     LET r       == m.rack
         \* BUG (BugRestamp): every switch stamps, as in plain Alg. 1.
         stamp   == m.ver = 0 \/ BugRestamp
         v       == IF stamp THEN verNext[r] ELSE m.ver
         hv      == IF m.ver = 0 THEN v ELSE m.hv
         nextVer == IF stamp THEN verNext[r] + 1
                    \* BUG (BugNoBump): ver_next is left behind.
                    ELSE IF BugNoBump THEN verNext[r]
                    ELSE Max(verNext[r], m.ver + 1)
     IN /\ verNext' = [verNext EXCEPT ![r] = nextVer]
        /\ hvOf' = IF r = HeadRack /\ m.ver = 0 THEN [hvOf EXCEPT ![m.w] = v] ELSE hvOf
        \* With at-most-once the write goes to the rack's detector, home.
        /\ \E D \in (IF IsRepl(r) /\ ~Marked(r) /\ ~EnableAtMostOnce
                      THEN (SUBSET Servers) \ {{}} ELSE {{Home}}) :
             net' = Remaining(m, dup) \cup {WReq(m.w, r, v, hv, d) : d \in D}
        /\ used' = CountDup(dup)
        /\ act' = [a |-> "SwitchWrite", m |-> m, dup |-> dup]
  /\ UNCHANGED <<ctab, detExecs, rset, verCompleted, store, wr, rd, lastHv, inversions, execs, extVer, tailRepl, otherStamps, liveRacks, failedRacks, tailMark>>

(***************************************************************************)
(* A server executes a write if its version is higher (S4.3) and passes it *)
(* down the chain: to the next rack's switch, or, at the tail, back to the *)
(* client as a WRITE-REPLY (S7).  A superseded write is passed on too (it  *)
(* is complete: a newer write already covers it).                          *)
(*                                                                         *)
(* With at-most-once the server is its rack's detector (home): a request   *)
(* its client table records is a duplicate or a retry (S6.4), neither      *)
(* executed nor applied; it goes on under the recorded version: down the   *)
(* chain from a non-tail rack (PegasusServer.passDownChain: the copy       *)
(* passed down may have been lost), to the client from the tail.  A head   *)
(* stamps a retry afresh, so only this keeps a request to one version.     *)
(* Otherwise the detector executes the request and records it (applied or *)
(* superseded, as PegasusServer.write).                                    *)
(***************************************************************************)
ServerWrite(m) ==
  /\ m \in net
  /\ m.t = "WREQ"
  /\ Up(m.rack)
  /\ \E dup \in DupChoices :
     LET r      == m.rack
         s      == m.dst
         det    == EnableAtMostOnce /\ s = Home
         cached == {e \in ctab[r] : e[1] = m.w}
         \* BUG (BugIgnoreTable): the detector never finds the request.
         isDup  == det /\ cached # {} /\ ~BugIgnoreTable
         rv     == IF isDup THEN (CHOOSE e \in cached : TRUE)[2] ELSE m.ver
         apply  == ~isDup /\ m.ver > store[r][s].ver
         to     == PassTarget(r)
         out    == IF to = 0 THEN WRep(m.w, rv, s)
                   \* BUG (BugPassDownFresh): the head's fresh stamp goes on.
                   ELSE IF isDup /\ BugPassDownFresh THEN CWReq(m.w, to, m.ver, m.ver)
                   ELSE CWReq(m.w, to, rv, IF isDup THEN rv ELSE m.hv)
         \* A recorded request a non-tail detector does not pass on is dropped.
         sent   == IF isDup /\ to # 0 /\ ~PassOnRecorded(r) THEN {} ELSE {out}
     IN /\ ctab' = IF det /\ ~isDup THEN [ctab EXCEPT ![r] = @ \cup {<<m.w, m.ver>>}] ELSE ctab
        /\ detExecs' = IF TrackExecs /\ ~isDup THEN detExecs \cup {<<r, m.w, m.ver>>}
                       ELSE detExecs
        /\ store' = IF apply THEN [store EXCEPT ![r][s] = [val |-> m.w, ver |-> m.ver]]
                    ELSE store
        /\ lastHv' = IF apply THEN [lastHv EXCEPT ![r][s] = m.hv] ELSE lastHv
        /\ inversions' = IF apply /\ m.hv < lastHv[r][s] THEN inversions \cup {<<r, s>>}
                         ELSE inversions
        /\ execs' = IF apply /\ r = Tail THEN execs \cup {<<m.w, m.ver>>} ELSE execs
        \* With BugRestamp a server may also forward with its rack's own
        \* version; the next switch restamps anyway.
        /\ net' = Remaining(m, dup) \cup sent
        /\ used' = CountDup(dup)
        /\ IF isDup
             THEN act' = [a |-> "ServerWrite", via |-> "DetectorDuplicate", m |-> m, dup |-> dup]
             ELSE act' = [a |-> "ServerWrite", m |-> m, dup |-> dup]
  /\ UNCHANGED <<verNext, rset, verCompleted, wr, rd, hvOf, extVer, tailRepl, otherStamps, liveRacks, failedRacks, tailMark>>

(* A client resends a pending write to the head rack (its first copy, or  *)
(* the reply, lost or late); the head's switch stamps it afresh.  With     *)
(* at-most-once the detectors keep it to one version; without, it runs     *)
(* again (MCPegasusChain_NoAMO).                                           *)
RetryWrite(w) ==
  /\ wr[w].st = "pend"
  /\ RetryDue(w)
  /\ used.retry < MaxRetry
  /\ net' = net \cup {CWReq(w, HeadRack, 0, 0)}
  /\ used' = [used EXCEPT !.retry = @ + 1]
  /\ act' = [a |-> "RetryWrite", w |-> w]
  /\ UNCHANGED <<ctab, detExecs, verNext, rset, verCompleted, store, wr, rd, hvOf, lastHv,
                 inversions, execs, extVer, tailRepl, otherStamps, liveRacks, failedRacks, tailMark>>

(* A client reads at the tail (S7); the tail switch routes it (Alg. 1).    *)
IssueRead(x) ==
  /\ rd[x].st = "idle"
  /\ IF x = 1 THEN TRUE ELSE rd[x - 1].st # "idle"
  /\ rd' = [rd EXCEPT ![x] = [st |-> "pend", floor |-> Floor, val |-> 0, ver |-> 0]]
  /\ \E s \in (IF tailRepl THEN rset[Tail] ELSE {Home}) :
       net' = net \cup {RReq(x, s)}
  /\ act' = [a |-> "IssueRead", r |-> x]
  /\ UNCHANGED <<ctab, detExecs, verNext, rset, verCompleted, store, used, wr, hvOf, lastHv,
                 inversions, execs, extVer, tailRepl, otherStamps, liveRacks, failedRacks, tailMark>>

(* A tail server answers a read with its value and version.                *)
ServerRead(m) ==
  /\ m \in net
  /\ m.t = "RREQ"
  /\ Up(Tail)
  /\ \E dup \in DupChoices :
     /\ net' = Remaining(m, dup)
               \cup {RRep(m.r, store[Tail][m.dst].val, store[Tail][m.dst].ver, m.dst)}
     /\ used' = CountDup(dup)
     /\ act' = [a |-> "ServerRead", m |-> m, dup |-> dup]
  /\ UNCHANGED <<ctab, detExecs, verNext, rset, verCompleted, store, wr, rd, hvOf, lastHv,
                 inversions, execs, extVer, tailRepl, otherStamps, liveRacks, failedRacks, tailMark>>

(* Algorithm 2 at the tail switch, which sees every client reply.          *)
Alg2(v, s) ==
  IF ~tailRepl THEN <<rset[Tail], verCompleted[Tail]>>
  ELSE IF v > verCompleted[Tail] THEN <<{s}, v>>
  ELSE IF v = verCompleted[Tail] THEN <<rset[Tail] \cup {s}, v>>
  ELSE <<rset[Tail], verCompleted[Tail]>>

(* The tail switch forwards a WRITE-REPLY or READ-REPLY to its client,     *)
(* after Alg. 2; this externalizes the version.  S6.3's removal rule: a    *)
(* key marked for removal leaves the tail's directory when a WRITE-REPLY   *)
(* from its home passes with a version at or above the mark (the tail's    *)
(* ver_next when it was marked, which every version the tail routed to a   *)
(* replica before the mark is below, thanks to the bump past passing       *)
(* versions); reads then go home.  A virtual write's reply (w = 0) goes to *)
(* the controller: Alg. 2 only, nothing externalized.  The reply to the    *)
(* controller's removal rewrite (RWREP, from home) is a home WRITE-REPLY   *)
(* to the removal rule (the implementation's is one) and goes to the       *)
(* controller: nothing externalized.                                       *)
SwitchReply(m) ==
  /\ m \in net
  /\ m.t \in {"WREP", "RREP", "RWREP"}
  /\ Up(Tail)
  /\ \E dup \in DupChoices :
     LET a == Alg2(m.ver, m.src)
         removeNow == /\ (m.t = "WREP" /\ m.w # 0) \/ m.t = "RWREP"
                      /\ tailRepl /\ tailMark # 0
                      /\ m.src = Home /\ TailRemovalCovers(m.ver, tailMark)
         client == m.t = "RREP" \/ (m.t = "WREP" /\ m.w # 0)
     IN
     /\ IF removeNow
          THEN /\ tailRepl' = FALSE
               /\ rset' = [rset EXCEPT ![Tail] = {}]
               /\ verCompleted' = [verCompleted EXCEPT ![Tail] = 0]
               /\ tailMark' = 0
          ELSE /\ rset' = [rset EXCEPT ![Tail] = a[1]]
               /\ verCompleted' = [verCompleted EXCEPT ![Tail] = a[2]]
               /\ UNCHANGED <<tailRepl, tailMark>>
     /\ extVer' = IF client THEN Max(extVer, m.ver) ELSE extVer
     /\ wr' = IF m.t = "WREP" /\ m.w # 0 /\ wr[m.w].st = "pend"
                THEN [wr EXCEPT ![m.w].st = "done", ![m.w].ver = m.ver] ELSE wr
     /\ rd' = IF m.t = "RREP" /\ rd[m.r].st = "pend"
                THEN [rd EXCEPT ![m.r].st = "done", ![m.r].val = m.val, ![m.r].ver = m.ver]
                ELSE rd
     /\ net' = Remaining(m, dup)
     /\ used' = CountDup(dup)
     /\ IF removeNow /\ m.t = "RWREP"
          THEN act' = [a |-> "SwitchReply", via |-> "RewriteRemoveKey", m |-> m, dup |-> dup]
        ELSE IF removeNow
          THEN act' = [a |-> "SwitchReply", via |-> "TailRemoveKey", m |-> m, dup |-> dup]
          ELSE act' = [a |-> "SwitchReply", m |-> m, dup |-> dup]
  /\ UNCHANGED <<ctab, detExecs, verNext, store, hvOf, lastHv, inversions, execs, otherStamps, liveRacks, failedRacks>>

(* The network drops a packet (between racks, or inside one).              *)
Lose(m) ==
  /\ m \in net
  /\ used.loss < MaxLoss
  /\ net' = net \ {m}
  /\ used' = [used EXCEPT !.loss = @ + 1]
  /\ act' = [a |-> "Lose", m |-> m]
  /\ UNCHANGED <<ctab, detExecs, verNext, rset, verCompleted, store, wr, rd, hvOf, lastHv,
                 inversions, execs, extVer, tailRepl, otherStamps, liveRacks, failedRacks, tailMark>>

(***************************************************************************)
(* The tail's switch stamps a write of a key its own rack heads: its       *)
(* ver_next also counts those (one register per switch, S6.1).             *)
(***************************************************************************)
TailStampsOther ==
  /\ otherStamps < NOtherStamps
  /\ Up(Tail)
  /\ verNext' = [verNext EXCEPT ![Tail] = @ + 1]
  /\ otherStamps' = otherStamps + 1
  /\ act' = [a |-> "TailStampsOther"]
  /\ UNCHANGED <<ctab, detExecs, rset, verCompleted, store, net, used, wr, rd, hvOf, lastHv,
                 inversions, execs, extVer, tailRepl, liveRacks, failedRacks, tailMark>>

(***************************************************************************)
(* The tail's controller adds the key to its directory (S6.3 AddKey, with  *)
(* S6.4's pause and drain: no write of the key is on its way to a tail     *)
(* server; writes still upstream may come later).  rset = {Home}, and      *)
(* ver_completed is home's version, which the controller reads after the   *)
(* drain: the switch's ver_next - 1, one rack's rule, also counts the      *)
(* versions of keys the rack heads, and a write of this key stamped by the *)
(* head before the pause can still arrive below it.                        *)
(***************************************************************************)
AddKeyAtTail ==
  /\ AddAtTail
  /\ ~tailRepl
  /\ Up(Tail)
  /\ ~\E m \in net : m.t = "WREQ" /\ m.rack = Tail
  /\ tailRepl' = TRUE
  /\ rset' = [rset EXCEPT ![Tail] = {Home}]
     \* BUG (BugAddAtVerNext): one rack's rule.
  /\ verCompleted' = [verCompleted EXCEPT ![Tail] =
                        IF BugAddAtVerNext THEN verNext[Tail] - 1 ELSE store[Tail][Home].ver]
  /\ act' = [a |-> "AddKeyAtTail"]
  /\ UNCHANGED <<ctab, detExecs, verNext, store, net, used, wr, rd, hvOf, lastHv, inversions, execs,
                 extVer, otherStamps, liveRacks, failedRacks, tailMark>>

(***************************************************************************)
(* The tail's controller marks the key for removal (S6.3; the directory    *)
(* lives at the tail only, as ChainRackController.mayReplicate): the mark  *)
(* is the tail's ver_next, the key's writes go home from now on, and the   *)
(* key leaves the directory on a home WRITE-REPLY at or above the mark     *)
(* (SwitchReply).  The mark must exceed every version the tail routed to a *)
(* replica before it; only the bump past passing versions makes the        *)
(* tail's ver_next do that.  The tail's ver_next also counts the versions  *)
(* of the keys its rack heads (TailStampsOther), so the key's own versions *)
(* may never reach it: a liveness limit, not a safety one.                 *)
(***************************************************************************)
MarkRemoveAtTail ==
  /\ tailRepl
  /\ tailMark = 0
  /\ Up(Tail)
  /\ used.rem < MaxRemove
     \* BUG (BugMarkAtHome): the key's own newest version at home, one rack's
     \* AddKey fix carried over to the mark; it would end removals sooner.
  /\ tailMark' = IF BugMarkAtHome THEN store[Tail][Home].ver + 1 ELSE verNext[Tail]
  /\ used' = [used EXCEPT !.rem = @ + 1]
  /\ act' = [a |-> "MarkRemoveAtTail"]
  /\ UNCHANGED <<ctab, detExecs, verNext, rset, verCompleted, store, net, wr, rd, hvOf, lastHv,
                 inversions, execs, extVer, tailRepl, otherStamps, liveRacks, failedRacks>>

(***************************************************************************)
(* The tail's controller issues a virtual write (S6.3) to the tail's home, *)
(* carrying ver_completed and the other servers to copy to, under          *)
(* Pegasus.tla's rule: the key is in the tail's directory and not marked,  *)
(* home is in rset (otherwise home's copy may be stale), and no write of   *)
(* the key is on its way to a tail server (the drain; writes still         *)
(* upstream may come later, as for AddKeyAtTail).                          *)
(***************************************************************************)
VWReq(r, v, fwd)        == [t |-> "VW", rack |-> r, ver |-> v, fwd |-> fwd]
VWCopy(r, val, v, d)    == [t |-> "VWCOPY", rack |-> r, val |-> val, ver |-> v, dst |-> d]

VirtualWriteAtTail ==
  /\ tailRepl
  /\ tailMark = 0
  /\ Up(Tail)
  /\ used.vw < MaxVW
  \* BUG (BugVWHomeStale): home need not hold the completed version.
  /\ Home \in rset[Tail] \/ BugVWHomeStale
  \* BugVWNoDrain: no wait for the tail's writes.
  /\ BugVWNoDrain \/ ~\E m \in net : m.t = "WREQ" /\ m.rack = Tail
  /\ \E D \in (SUBSET (Servers \ {Home})) \ {{}} :
       net' = net \cup {VWReq(Tail, verCompleted[Tail], D)}
  /\ used' = [used EXCEPT !.vw = @ + 1]
  /\ act' = [a |-> "VirtualWriteAtTail"]
  /\ UNCHANGED <<ctab, detExecs, verNext, rset, verCompleted, store, wr, rd, hvOf, lastHv,
                 inversions, execs, extVer, tailRepl, otherStamps, liveRacks, failedRacks,
                 tailMark>>

(***************************************************************************)
(* The tail's home receives the virtual write: it raises its version to    *)
(* ver_completed keeping its value, copies (value, version) to the listed  *)
(* servers and replies; a server receiving a copy stores it if its version *)
(* is higher and replies.  The replies pass the tail switch's Algorithm 2, *)
(* which adds the servers to rset; they externalize nothing.  A copy is    *)
(* not passed down the chain (the tail is the chain's end).  The copy's    *)
(* hv is its version (a version is the head's stamp).                      *)
(***************************************************************************)
ServerVirtualWrite(m) ==
  /\ m \in net
  /\ m.t \in {"VW", "VWCOPY"}
  /\ Up(m.rack)
  /\ \E dup \in DupChoices :
     LET r   == m.rack
         s   == IF m.t = "VW" THEN Home ELSE m.dst
         cur == store[r][s]
         val == IF m.t = "VW" THEN cur.val ELSE m.val
         nv  == IF m.t = "VW" THEN Max(cur.ver, m.ver) ELSE m.ver
         apply == nv > cur.ver
     IN /\ store' = IF apply THEN [store EXCEPT ![r][s] = [val |-> val, ver |-> nv]] ELSE store
        /\ lastHv' = IF apply THEN [lastHv EXCEPT ![r][s] = nv] ELSE lastHv
        /\ inversions' = IF apply /\ nv < lastHv[r][s] THEN inversions \cup {<<r, s>>}
                         ELSE inversions
        /\ net' = Remaining(m, dup)
                  \cup (IF m.t = "VW" THEN {VWCopy(r, val, nv, d) : d \in m.fwd} ELSE {})
                  \cup {WRep(0, nv, s)}
        /\ used' = CountDup(dup)
        /\ act' = [a |-> "ServerVirtualWrite", m |-> m, dup |-> dup]
  /\ UNCHANGED <<ctab, detExecs, verNext, rset, verCompleted, wr, rd, hvOf, execs, extVer, tailRepl,
                 otherStamps, liveRacks, failedRacks, tailMark>>

(***************************************************************************)
(* The tail's controller ends a stuck removal (issue 16; the fix).  The   *)
(* key is marked; the controller pauses its writes and waits for them to  *)
(* drain (no write of the key on its way to a tail server: the §6.4       *)
(* transition pause, as AddKeyAtTail and VirtualWriteAtTail), reads every *)
(* tail server's copy and takes the newest, and has the tail's switch     *)
(* stamp a rewrite of it with ver_next, which is at or above the mark.    *)
(* Home applies it if it still holds the version the controller read (it  *)
(* does: the writes are paused), and its reply ends the removal           *)
(* (SwitchReply).  Why it is safe: a rewrite raises home's version        *)
(* without a new client value, so it would hide any write of the key      *)
(* stamped below its version that reached home, or a replica, after it.   *)
(* The pause leaves none: every write stamped before the rewrite has      *)
(* arrived (and the newest copy carries the latest of them), every write  *)
(* stamped after it has a higher version.  The version condition alone    *)
(* does not do that (BugRewriteNoDrain): the network reorders a write     *)
(* stamped just before the rewrite behind it.  Only the head stamps the   *)
(* key's versions, so the rewrite needs the tail to be the head as well:  *)
(* a tail stamp could be the version a head gives a later write.          *)
(* (Under at-most-once the removal can stall only there: a retry gets a  *)
(* fresh stamp only from the head.)                                       *)
(***************************************************************************)
RWReq(r, v, val, exp) == [t |-> "RW", rack |-> r, ver |-> v, val |-> val, exp |-> exp]
RWRep(v, s)           == [t |-> "RWREP", ver |-> v, src |-> s]

RemovalRewriteAtTail ==
  /\ used.rw < MaxRewrite
  /\ tailRepl /\ tailMark # 0
  /\ Up(Tail)
  /\ Tail = HeadRack
  \* the controller's previous rewrite has been answered (or lost)
  /\ ~\E m \in net : m.t \in {"RW", "RWREP"}
  \* the pause and drain (BUG: both variants have neither)
  /\ \/ BugRewriteUncond \/ BugRewriteNoDrain
     \/ ~\E m \in net : m.t = "WREQ" /\ m.rack = Tail
  /\ LET newest == IF BugRewriteHomeCopy THEN Home
                   ELSE CHOOSE s \in Servers :
                          \A q \in Servers : store[Tail][q].ver <= store[Tail][s].ver
     IN net' = net \cup {RWReq(Tail, verNext[Tail], store[Tail][newest].val,
                               store[Tail][Home].ver)}
  /\ verNext' = [verNext EXCEPT ![Tail] = @ + 1]
  /\ used' = [used EXCEPT !.rw = @ + 1]
  /\ act' = [a |-> "RemovalRewriteAtTail"]
  /\ UNCHANGED <<ctab, detExecs, rset, verCompleted, store, wr, rd, hvOf, lastHv,
                 inversions, execs, extVer, tailRepl, otherStamps, liveRacks, failedRacks,
                 tailMark>>

(***************************************************************************)
(* Home receives the rewrite: it stores the newest copy's value under the  *)
(* rewrite's version if it still holds the version the controller read,    *)
(* and answers from home (a write reply: the removal rule sees it).  It    *)
(* is not a client's write: no client table, nothing externalized, not     *)
(* passed down (the tail is the chain's end).  Its hv is its version (the  *)
(* tail is the head).  BUG (BugRewriteUncond): home relabels its own value *)
(* whatever version it holds, as a virtual write does.                     *)
(***************************************************************************)
ServerRewrite(m) ==
  /\ m \in net
  /\ m.t = "RW"
  /\ Up(m.rack)
  /\ \E dup \in DupChoices :
     LET r     == m.rack
         cur   == store[r][Home]
         val   == IF BugRewriteUncond THEN cur.val ELSE m.val
         apply == m.ver > cur.ver /\ (BugRewriteUncond \/ cur.ver = m.exp)
     IN /\ store' = IF apply THEN [store EXCEPT ![r][Home] = [val |-> val, ver |-> m.ver]]
                    ELSE store
        /\ lastHv' = IF apply THEN [lastHv EXCEPT ![r][Home] = m.ver] ELSE lastHv
        /\ inversions' = IF apply /\ m.ver < lastHv[r][Home] THEN inversions \cup {<<r, Home>>}
                         ELSE inversions
        /\ net' = Remaining(m, dup) \cup (IF apply THEN {RWRep(m.ver, Home)} ELSE {})
        /\ used' = CountDup(dup)
        /\ act' = [a |-> "ServerRewrite", m |-> m, dup |-> dup]
  /\ UNCHANGED <<ctab, detExecs, verNext, rset, verCompleted, wr, rd, hvOf, execs, extVer,
                 tailRepl, otherStamps, liveRacks, failedRacks, tailMark>>

-----------------------------------------------------------------------------
(***************************************************************************)
(* A rack crashes (S7 "Reconfiguring the Chains"): its switch and servers  *)
(* stop; packets on their way to it wait there for nothing.  The last live *)
(* rack never crashes (ChainConfigService never removes the last one).     *)
(***************************************************************************)
RackFail(f) ==
  /\ Cardinality(failedRacks) < MaxRackFail
  /\ f \in liveRacks \ failedRacks
  /\ Cardinality(liveRacks \ failedRacks) >= 2
  /\ failedRacks' = failedRacks \cup {f}
  /\ act' = [a |-> "RackFail", rack |-> f]
  /\ UNCHANGED <<ctab, detExecs, verNext, rset, verCompleted, store, net, used, wr, rd, hvOf, lastHv,
                 inversions, execs, extVer, tailRepl, otherStamps, liveRacks, tailMark>>

\* A packet handled by rack f: a write for its switch or servers, and if f is
\* the tail, reads and the replies its switch would forward.
BoundFor(m, f) ==
  \/ m.t \in {"CWREQ", "WREQ"} /\ m.rack = f
  \/ m.t \in {"VW", "VWCOPY", "RW"} /\ m.rack = f
  \/ m.t \in {"RREQ", "WREP", "RREP", "RWREP"} /\ f = Tail

(***************************************************************************)
(* The configuration service removes a crashed rack from the chain (S7:    *)
(* "the configuration service is notified to remove the failed rack from   *)
(* all chains it participated in"; ChainConfigService): the view drops it, *)
(* and what was on its way to it is gone.  Before that it waits until no   *)
(* write the crashed rack passed down is still on its way to the next rack *)
(* (ChainConfigService's drain time): if the crashed rack was the head,    *)
(* the next rack stamps the writes issued under the new view, and only     *)
(* the passage of those older writes has raised its ver_next past them.    *)
(* A rack that becomes the tail has no directory entry unless every rack   *)
(* keeps one (Replicated); the writes its servers hold become what reads   *)
(* see, so they are recorded as taking effect (execs).  No replacement     *)
(* rack is added (not in the implementation either).                       *)
(***************************************************************************)
Reconfigure(f) ==
  /\ f \in failedRacks \cap liveRacks
  \* BUG (BugReconfigNoDrain): no wait for the crashed rack's writes.
  /\ IF BugReconfigNoDrain THEN TRUE ELSE ReconfigDrained(f)
  /\ liveRacks' = liveRacks \ {f}
  /\ net' = {m \in net : ~BoundFor(m, f)}
  /\ LET nt == SetMax(liveRacks \ {f}) IN
       IF f = Tail
         THEN /\ tailRepl' = Replicated
              /\ tailMark' = 0
              /\ execs' = execs \cup {<<store[nt][s].val, store[nt][s].ver>> :
                                       s \in {x \in Servers : store[nt][x].val # 0}}
         ELSE UNCHANGED <<tailRepl, execs, tailMark>>
  /\ act' = [a |-> "Reconfigure", rack |-> f]
  /\ UNCHANGED <<ctab, detExecs, verNext, rset, verCompleted, store, used, wr, rd, hvOf, lastHv,
                 inversions, extVer, otherStamps, failedRacks>>

Next ==
  \/ \E f \in Racks : RackFail(f) \/ Reconfigure(f)
  \/ TailStampsOther
  \/ AddKeyAtTail
  \/ MarkRemoveAtTail
  \/ VirtualWriteAtTail
  \/ RemovalRewriteAtTail
  \/ \E w \in WIds : IssueWrite(w) \/ RetryWrite(w)
  \/ \E x \in RIds : IssueRead(x)
  \/ \E m \in net : SwitchWrite(m) \/ ServerWrite(m) \/ ServerRead(m)
                    \/ SwitchReply(m) \/ Lose(m) \/ ServerVirtualWrite(m)
                    \/ ServerRewrite(m)

Spec == Init /\ [][Next]_vars

-----------------------------------------------------------------------------
(* S7: "This ensures that all replicas apply WRITES in the same order":    *)
(* every server, in every rack, applies writes in head-version order.      *)
SameOrder == inversions = {}

(* What chain reconfiguration relies on (S7): a rack that becomes head     *)
(* must stamp versions above every completed write; so every switch's      *)
(* ver_next is above every version its rack stores.                        *)
VerNextAhead == \A r \in Racks, s \in Servers : store[r][s].ver < verNext[r]

(* The tail rack's directory invariant (as DirectoryInv in Pegasus.tla).   *)
TailDirectoryInv ==
  IF tailRepl
    THEN /\ verCompleted[Tail] >= extVer
         /\ rset[Tail] # {}
         /\ \A s \in rset[Tail] : store[Tail][s].ver >= extVer
    ELSE store[Tail][Home].ver >= extVer

(* Every server in the tail's replica set holds ver_completed or newer:    *)
(* the tail's AddKey takes home's version, and Alg. 2 raises               *)
(* ver_completed only on a reply whose server holds that version.  Hence   *)
(* the tail's virtual write never raises home's version (it copies home's  *)
(* (value, version) as it is), which is why, unlike one rack's, it needs   *)
(* no drain (MCPegasusChainVWNoDrain).                                     *)
TailRsetCurrent ==
  tailRepl => \A s \in rset[Tail] : store[Tail][s].ver >= verCompleted[Tail]

(* A version names one write on every replica that is still up, also       *)
(* across a change of head: the new head never stamps a version that a     *)
(* write of the old head still carries somewhere (a write stamped by the   *)
(* old head and lost with it may have its version reused: no one has it).  *)
ReplicasAgree ==
  \A r, q \in Racks \ failedRacks, s, t \in Servers :
     store[r][s].ver = store[q][t].ver => store[r][s].val = store[q][t].val

(* At-most-once across the chain (S6.4 with S7): a write request, however  *)
(* often retried or duplicated, is executed by the detectors of the racks  *)
(* still up under one version only (once per rack, every rack the same     *)
(* version).  A crashed rack's executions are gone with it: a retry after  *)
(* a failover may run again under a new version if no live rack has it.   *)
AtMostOnce ==
  \A w \in WIds :
     Cardinality({e[3] : e \in {x \in detExecs : x[2] = w /\ x[1] \notin failedRacks}}) <= 1

(* The linearizability surrogate of Pegasus.tla, at the tail.              *)
Linearizable ==
  /\ \A x \in RIds : rd[x].st = "done" =>
        /\ rd[x].ver >= rd[x].floor
        /\ rd[x].val = ValueAt(rd[x].ver)
  /\ \A w \in WIds : wr[w].st = "done" => wr[w].ver > wr[w].floor

-----------------------------------------------------------------------------
\* Action coverage for ./innet verify (docs/layout.md, as in FarReach.tla): not
\* a property.  The first time a newly found state carries an action label,
\* print it; TLC register 1 holds the labels printed so far.  TLC is
\* instantiated under a name because its Sequences would clash with Tail.
\* The label is act.a, or act.via where a step names the case it took (the
\* tail's reply that removes the key, TailRemoveKey), as in Pegasus.tla.
ASSUME TLCm!TLCSet(1, {})
CoverageLabel == IF "via" \in DOMAIN act THEN act.via ELSE act.a
ActionCoverage ==
    \/ CoverageLabel \in TLCm!TLCGet(1)
    \/ /\ TLCm!TLCSet(1, TLCm!TLCGet(1) \cup {CoverageLabel})
       /\ TLCm!PrintT(<<"innet-action", CoverageLabel>>)

=============================================================================
