------------------------------- MODULE Pegasus -------------------------------
(***************************************************************************)
(* Pegasus: an in-network coherence directory for selectively replicated   *)
(* keys in a single rack (Li et al., "Pegasus: Tolerating Skewed Workloads *)
(* in Distributed Storage with In-Network Coherence Directories", OSDI'20; *)
(* text in /work/shared/seeds/pegasus-osdi20.txt).                          *)
(*                                                                         *)
(* The ToR switch keeps ver_next, rkeys, rset and ver_completed (Fig. 3),  *)
(* stamps a version on every WRITE and routes requests (Algorithm 1), and  *)
(* watches every reply to keep the replica set pointed at the newest       *)
(* externalized version (Algorithm 2).  Servers keep (value, version) per  *)
(* key and apply a write only if its version is higher.  The controller    *)
(* adds and removes replicated keys and issues virtual writes (S6.3).      *)
(* Optional at-most-once semantics (S6.4) uses detector nodes chosen by    *)
(* request id and per-server client tables.                                *)
(*                                                                         *)
(* The links between the switch and the servers lose, duplicate (bounded)  *)
(* and reorder packets: the network is a set of in-flight messages, any of *)
(* which may be delivered next, delivered while a copy stays in flight, or *)
(* dropped.  Clients sit behind the switch: a client request reaches the   *)
(* switch atomically with its sending (a request lost before the switch is *)
(* a request never sent), and a reply forwarded by the switch may be lost  *)
(* on its way to the client, which then retries.                           *)
(*                                                                         *)
(* Each operation is issued by its own client (so a client's "most recent  *)
(* request" in S6.4 is that operation).  A write's value is its write id,  *)
(* so every value is unique and staleness is visible.                      *)
(*                                                                         *)
(* BOOLEAN constants Bug* turn on the buggy variants that the models must  *)
(* refute; all of them are FALSE in the protocol proper.                   *)
(*                                                                         *)
(* Two rules are not in the paper; TLC showed the protocol needs them:     *)
(* a virtual write waits until no write to its key is in flight            *)
(* (VirtualWrite), and a duplicate answered from a migrated client-table   *)
(* entry is trusted only as far as the directory vouches for it            *)
(* (Unvouched).  docs/specs/pegasus.md gives the counterexamples.          *)
(* Chain replication across racks (S7) is in PegasusChain.tla.            *)
(* Not in the paper either: a crash of the switch and the controller's     *)
(* recovery of the fresh switch (SwitchCrash, RecoverSwitch; ours, as the  *)
(* implementation does it), off unless a .cfg sets MaxSwitchCrash.         *)
(*                                                                         *)
(* Hash collisions (S6.6): the switch's directory is indexed by Hash(k)    *)
(* (rset, ver_completed and the removal mark are per hash); the controller *)
(* and the servers know the replicated keys in full (rkeys).  A request    *)
(* for an unreplicated key whose hash a replicated key shares is routed as *)
(* if replicated, and the server it reaches chains it to the key's home.   *)
(* Not in the paper (TLC shows it is needed): the replies of such a key    *)
(* say so, and Algorithm 2 skips them (NoDirReply).                        *)
(***************************************************************************)
EXTENDS Naturals, FiniteSets
LOCAL TLCm == INSTANCE TLC

CONSTANTS
  NServers,        \* servers in the rack are 1..NServers
  Keys,            \* keys (identified by their hash, S5); a finite set
  Home,            \* Home[k]: the home server of key k (S5, consistent hashing)
  InitRKeys,       \* keys replicated at start (rset = {home}, ver_completed = 0)
  NWrites,         \* client write operations 1..NWrites; write w writes value w
  NReads,          \* client read operations 1..NReads
  MaxDup,          \* how many times the network may duplicate a packet
  MaxLoss,         \* how many packets the network may drop
  MaxRetry,        \* how many times clients may retry (resend) a request
  MaxAdd,          \* how many times the controller may add a replicated key
  MaxRemove,       \* how many times the controller may mark a key for removal
  MaxVW,           \* how many virtual writes the controller may issue
  EnableAtMostOnce,\* S6.4 detector nodes and client tables on/off
  \* Buggy variants (each must be refuted by TLC):
  BugAcceptLower,  \* servers apply a write whatever its version (not only higher)
  BugAddOnLower,   \* Alg. 2 adds the server to rset also for a LOWER version
  BugNoReset,      \* Alg. 2 on a higher version adds the server instead of resetting rset
  BugEarlyRemove,  \* S6.3 removal drops the key when its write is sent home, not on the reply
  BugVWNoDrain,    \* virtual write issued while writes to the key are still in flight
  BugNoTableCopy,  \* S6.4: key transitions do not migrate client tables
  BugBlindDupReply,\* S6.4: a duplicate's cached reply names the detector and is
                   \* processed by Alg. 2 like any reply
  BugForwardUnvouched \* S6.4: the switch forwards a duplicate's reply that no
                   \* server vouches for even when the directory does not cover it

Servers == 1..NServers
WIds    == 1..NWrites
RIds    == 1..NReads
Vals    == 0..NWrites            \* 0 is the initial value of every key

ASSUME NServers \in Nat \ {0}
ASSUME Keys # {} /\ IsFiniteSet(Keys)
ASSUME Home \in [Keys -> Servers]
ASSUME InitRKeys \subseteq Keys
ASSUME \A n \in {NWrites, NReads, MaxDup, MaxLoss, MaxRetry, MaxAdd, MaxRemove, MaxVW} :
         n \in Nat
ASSUME \A b \in {EnableAtMostOnce, BugAcceptLower, BugAddOnLower, BugNoReset,
                 BugEarlyRemove, BugVWNoDrain, BugNoTableCopy, BugBlindDupReply,
                 BugForwardUnvouched} :
         b \in BOOLEAN
\* The table-migration bug only means something when at-most-once is on.
ASSUME BugNoTableCopy => EnableAtMostOnce
ASSUME BugBlindDupReply => EnableAtMostOnce
ASSUME BugForwardUnvouched => EnableAtMostOnce

(***************************************************************************)
(* Ending a stuck removal (issue 16; docs/specs/pegasus.md section 11, as  *)
(* PegasusChain.tla's RemovalRewriteAtTail).  Under at-most-once a key     *)
(* marked at M can stay in the directory for ever: a retry stamped >= M    *)
(* goes home, home's detector answers it from its client table (migrated   *)
(* there at the mark) with the recorded version < M, and no later write    *)
(* comes.  The fix (RemovalRewrite): the controller pauses the key's       *)
(* writes and waits until none is in flight, reads every server's copy,    *)
(* and has the switch stamp a rewrite of the newest with ver_next (>= M);  *)
(* home's reply ends the removal.  Defined here with the protocol's values *)
(* without the fix (a .cfg overrides them): MaxRewrite = 0 leaves every    *)
(* older model as it was.                                                  *)
(***************************************************************************)
MaxRewrite == 0            \* how many removal rewrites the controller may issue
BugRewriteUncond == FALSE  \* BUG: the obvious fix: no pause or drain, home relabels its
                           \* own value with the fresh stamp whatever it holds
BugRewriteNoDrain == FALSE \* BUG: no pause or drain, home applies the rewrite only if it
                           \* still holds the version the controller read (the condition)
BugRewriteHomeCopy == FALSE \* BUG: under the pause, but the rewrite carries home's copy,
                            \* not the newest of the servers' copies

(***************************************************************************)
(* Switch crash and recovery (ours: the paper leaves a failed switch to    *)
(* chain reconfiguration, S7; docs/pegasus.md "Switch crash and recovery", *)
(* the implementation's controller.RecoverSwitch; docs/specs/pegasus.md    *)
(* section 12).  SwitchCrash: the switch loses ver_next and its directory  *)
(* (rset, ver_completed, the removal marks), and every packet queued in it *)
(* or coming to it; it stays down, closed to clients, until RecoverSwitch. *)
(* Defined here with the protocol's values (a .cfg overrides them):        *)
(* MaxSwitchCrash = 0 leaves every older model as it was.                  *)
(***************************************************************************)
MaxSwitchCrash == 0        \* how many times the switch may crash
BugRecoverVerNext == FALSE \* BUG: recovery leaves ver_next as the fresh switch has it
                           \* (1), below versions the servers hold
BugRecoverNoCopy == FALSE  \* BUG: recovery does not write the newest copy of a formerly
                           \* replicated key to its home (reads now go home)
BugRecoverNoDrain == FALSE \* BUG: recovery reads the servers while packets the old switch
                           \* stamped and sent are still on their way to them

\* Every WRITE (first send or retry) and every removal rewrite (issue 16)
\* takes a fresh version, so versions are bounded by the number of sends.
\* Used only in TypeOK.
MaxVer == NWrites * (MaxRetry + 1) + MaxRewrite
Vers   == 0..MaxVer

\* S6.4: the detector node is chosen deterministically from the REQUEST id
\* (here the write id), not from the key, so retries meet the same server.
Detector(w) == ((w - 1) % NServers) + 1

Max(a, b) == IF a >= b THEN a ELSE b

(***************************************************************************)
(* Hash collisions (S6.6).  Hash(k) is the directory index of key k (the   *)
(* switch acts on small key hashes, S5); the identity here, so no two keys *)
(* collide.  A collision model's .cfg replaces it (Hash <- MCHashCollide)  *)
(* and may set one of the bug flags below (Name = TRUE); every other       *)
(* model is as it was.                                                     *)
(***************************************************************************)
Hash(k) == k
BugNoChaining == FALSE   \* a server executes a request for an unreplicated key it
                         \* is not home for (no request chaining, S6.6)
BugCollisionAlg2 == FALSE \* the replies of a key sharing a replicated key's hash
                         \* are not marked, and Algorithm 2 takes them for its own
BugReplicateBoth == FALSE \* the controller replicates a key whose hash a replicated
                         \* key already has (S6.6: "only replicates one of them")

Hashes == {Hash(k) : k \in Keys}

\* Hooks for the liveness models (PegasusLive.tla; docs/specs/pegasus.md,
\* "Liveness").  Each is the protocol's rule; a liveness model's .cfg may
\* replace one (Hook <- Other) by a buggy rule, every other model unchanged.
\*   WriteAcked(applied, isDup) - the server replies to a WRITE (always:
\*                                a superseded write still completes, S6.2.1)
\*   RemovalCovers(v, mark)     - a home reply of version v, for a key marked
\*                                at ver_next = mark, ends the removal (S6.3)
WriteAcked(applied, isDup) == TRUE
RemovalCovers(v, mark) == v >= mark

VARIABLES
  verNext,       \* switch: next version number to stamp (Fig. 3 ver_next)
  rkeys,         \* controller and servers: the replicated keys; the switch holds their
                 \* hashes (Fig. 3 rkeys; S6.6: servers track the replicated keys)
  rset,          \* switch: hash -> servers holding a valid copy (Fig. 3 rset)
  verCompleted,  \* switch: hash -> version of latest completed write (Fig. 3 ver_completed)
  markVer,       \* switch/controller: hash -> 0, or ver_next when it was marked for removal (S6.3)
  store,         \* server -> key -> [val, ver] stored object and its version
  ctab,          \* server -> client table: set of <<write id, version replied>> (S6.4)
  net,           \* set of in-flight packets between the switch and the servers
  used,          \* fault / retry / controller budgets consumed so far
  wr,            \* history: write id -> [st, key, floor, ver] (client view)
  rd,            \* history: read id -> [st, key, floor, val, ver] (client view)
  execs,         \* history: set of <<w, ver>>: some server applied write w stamped ver
  extVer,        \* history: key -> highest version the switch has externalized (S6.2.3)
  act,           \* the last action taken and its parameters (for traces; not in VIEW)
  swDown,        \* switch: crashed and not yet recovered (closed to clients, drops packets)
  lostKeys       \* controller, durably: the keys replicated when the switch crashed,
                 \* whose directory entries the crash lost (empty while the switch is up)

vars == <<verNext, rkeys, rset, verCompleted, markVer, store, ctab, net, used,
          wr, rd, execs, extVer, act, swDown, lostKeys>>
crashVars == <<swDown, lostKeys>>

\* A step of the switch (a client request it stamps and routes, a reply it
\* handles) or of the controller's directory procedures: only while the
\* switch is up (a crashed switch is closed until RecoverSwitch).
SwitchUp == ~swDown /\ UNCHANGED crashVars

-----------------------------------------------------------------------------
(* Packets.  A WREQ carries the write's value (its id; 0 with the home's   *)
(* value for a virtual write's forwards), the stamped version, and for     *)
(* at-most-once the detector flag and the other replicas to forward to.    *)
WReq(w, val, k, v, d, det, fwd) ==
  [t |-> "WREQ", w |-> w, val |-> val, key |-> k, ver |-> v, dst |-> d,
   det |-> det, fwd |-> fwd]
RReq(r, k, d)        == [t |-> "RREQ", r |-> r, key |-> k, dst |-> d]
VWReq(k, v, d, fwd)  == [t |-> "VW", key |-> k, ver |-> v, dst |-> d, fwd |-> fwd]
WRep(w, k, v, s)     == [t |-> "WREP", w |-> w, key |-> k, ver |-> v, src |-> s]
RRep(r, k, x, v, s)  == [t |-> "RREP", r |-> r, key |-> k, val |-> x, ver |-> v, src |-> s]
\* Issue 16: the controller's removal rewrite (value x, version v, sent to
\* home d, applied if home still holds version e) and home's reply to it.
RWReq(k, v, x, e, d) == [t |-> "RW", key |-> k, ver |-> v, val |-> x, exp |-> e, dst |-> d]
RWRep(k, v, s)       == [t |-> "RWREP", key |-> k, ver |-> v, src |-> s]

(***************************************************************************)
(* S6.6.  The switch's directory has an entry for k's hash (InDir): the    *)
(* switch routes k's requests as a replicated key's, even when k itself is *)
(* not replicated but shares the hash of one that is.  A server that gets  *)
(* a request for an unreplicated key it is not home for chains it there    *)
(* (Misrouted), also when the entry that misrouted it has gone since (TLC: *)
(* a write of key 2 routed by key 1's entry reaches a server after key 1's *)
(* removal).  The paper's rule is for every unreplicated key; the spec     *)
(* applies it to keys whose hash another key has (HashShared), so that the *)
(* models without collisions are as they were: there a misrouted request   *)
(* is a write stamped before its own key's removal, below the version that *)
(* removed it, and executing it where it lands is safe (MCPegasusRemove).  *)
(* Not in the paper: a reply for an unreplicated key whose hash another   *)
(* key has carries a mark (field nodir); the switch forwards it without    *)
(* Algorithm 2 or the removal rule: otherwise its version, a version of    *)
(* the other key's counter, resets the replicated key's rset to this       *)
(* key's home (BugCollisionAlg2).  The protocol rule is "mark every reply  *)
(* of an unreplicated key"; the spec marks only keys whose hash is shared, *)
(* so that the packets of the models without collisions are as they were  *)
(* (for a key that shares no hash the mark changes one case: a reply sent *)
(* before the key's own AddKey and handled after it, whose version equal   *)
(* to ver_completed adds the key's home, which holds that version).        *)
(***************************************************************************)
InDir(k) == Hash(k) \in {Hash(j) : j \in rkeys}
HashShared(k) == \E j \in Keys : j # k /\ Hash(j) = Hash(k)
Misrouted(s, k) == s # Home[k] /\ k \notin rkeys /\ HashShared(k)
NoDirReply(k) == ~BugCollisionAlg2 /\ k \notin rkeys /\ HashShared(k)
WRepOut(w, k, v, s) ==
  IF NoDirReply(k) THEN [t |-> "WREP", w |-> w, key |-> k, ver |-> v, src |-> s, nodir |-> TRUE]
  ELSE WRep(w, k, v, s)
RRepOut(r, k, x, v, s) ==
  IF NoDirReply(k)
    THEN [t |-> "RREP", r |-> r, key |-> k, val |-> x, ver |-> v, src |-> s, nodir |-> TRUE]
    ELSE RRep(r, k, x, v, s)
NoDir(m) == "nodir" \in DOMAIN m

Msgs ==
       [t : {"WREQ"}, w : {0} \cup WIds, val : Vals, key : Keys, ver : Vers,
        dst : Servers, det : BOOLEAN, fwd : SUBSET Servers]
  \cup [t : {"RREQ"}, r : RIds, key : Keys, dst : Servers]
  \cup [t : {"VW"}, key : Keys, ver : Vers, dst : Servers, fwd : SUBSET Servers]
  \cup [t : {"WREP"}, w : {0} \cup WIds, key : Keys, ver : Vers, src : {0} \cup Servers]
  \cup [t : {"RREP"}, r : RIds, key : Keys, val : Vals, ver : Vers, src : Servers]
  \cup [t : {"WREP"}, w : {0} \cup WIds, key : Keys, ver : Vers, src : {0} \cup Servers,
        nodir : {TRUE}]
  \cup [t : {"RREP"}, r : RIds, key : Keys, val : Vals, ver : Vers, src : Servers,
        nodir : {TRUE}]
  \cup [t : {"RW"}, key : Keys, ver : Vers, val : Vals, exp : Vers, dst : Servers]
  \cup [t : {"RWREP"}, key : Keys, ver : Vers, src : Servers]

Budgets == [dup : Nat, loss : Nat, retry : Nat, add : Nat, rem : Nat, vw : Nat, rw : Nat,
            crash : Nat]

TypeOK ==
  /\ verNext \in 1..(MaxVer + 1)
  /\ rkeys \subseteq Keys
  /\ rset \in [Hashes -> SUBSET Servers]
  /\ verCompleted \in [Hashes -> Vers]
  /\ markVer \in [Hashes -> 0..(MaxVer + 1)]
  /\ store \in [Servers -> [Keys -> [val : Vals, ver : Vers]]]
  /\ ctab \in [Servers -> SUBSET (WIds \X Vers)]
  /\ net \subseteq Msgs
  /\ used \in Budgets
  /\ wr \in [WIds -> [st : {"idle", "pend", "done"}, key : Keys, floor : Vers, ver : Vers]]
  /\ rd \in [RIds -> [st : {"idle", "pend", "done"}, key : Keys, floor : Vers,
                      val : Vals, ver : Vers]]
  /\ execs \subseteq WIds \X Vers
  /\ extVer \in [Keys -> Vers]
  /\ swDown \in BOOLEAN
  /\ lostKeys \subseteq Keys

-----------------------------------------------------------------------------
(* Helpers over the recorded history.                                      *)

\* The highest version among operations on k that have completed at their
\* client.  An operation that starts now must see at least this version:
\* that is the real-time order of linearizability, recorded at the start of
\* each operation instead of a logical clock (which would split states that
\* differ only in timestamps).
Floor(k) ==
  LET vs == {wr[w].ver : w \in {x \in WIds : wr[x].st = "done" /\ wr[x].key = k}}
            \cup {rd[r].ver : r \in {x \in RIds : rd[x].st = "done" /\ rd[x].key = k}}
  IN IF vs = {} THEN 0 ELSE CHOOSE v \in vs : \A u \in vs : u <= v

\* Writes to k that took effect: applied by a server, or acknowledged to the
\* client (a write rejected as superseded still completes, S6.2.1).
Effective(k) ==
  {e \in execs : wr[e[1]].key = k}
  \cup {<<w, wr[w].ver>> : w \in {x \in WIds : wr[x].st = "done" /\ wr[x].key = k}}

\* The value a sequential store holds at version v if writes are ordered by
\* their versions, as the paper's correctness argument orders them (S6.2.3).
ValueAt(k, v) ==
  LET E == {e \in Effective(k) : e[2] <= v}
  IN IF E = {} THEN 0 ELSE (CHOOSE e \in E : \A f \in E : f[2] <= e[2])[1]

Drained(k) == ~\E m \in net : m.t = "WREQ" /\ m.key = k

\* A delivered packet leaves the network, unless the network duplicates it,
\* in which case a copy stays in flight and may be delivered again.
DupChoices == IF used.dup < MaxDup THEN BOOLEAN ELSE {FALSE}
Remaining(m, dup) == IF dup THEN net ELSE net \ {m}
CountDup(dup) == IF dup THEN [used EXCEPT !.dup = @ + 1] ELSE used

\* A reply forwarded by the switch may be lost before the client; that only
\* matters if the client can still retry.
ClientLossChoices == IF used.retry < MaxRetry THEN BOOLEAN ELSE {FALSE}

-----------------------------------------------------------------------------
Init ==
  /\ verNext = 1
  /\ rkeys = InitRKeys
  /\ rset = [h \in Hashes |-> IF \E k \in InitRKeys : Hash(k) = h
                                THEN {Home[CHOOSE k \in InitRKeys : Hash(k) = h]} ELSE {}]
  /\ verCompleted = [h \in Hashes |-> 0]
  /\ markVer = [h \in Hashes |-> 0]
  /\ store = [s \in Servers |-> [k \in Keys |-> [val |-> 0, ver |-> 0]]]
  /\ ctab = [s \in Servers |-> {}]
  /\ net = {}
  /\ used = [dup |-> 0, loss |-> 0, retry |-> 0, add |-> 0, rem |-> 0, vw |-> 0, rw |-> 0,
             crash |-> 0]
  /\ wr = [w \in WIds |-> [st |-> "idle", key |-> CHOOSE k \in Keys : TRUE,
                           floor |-> 0, ver |-> 0]]
  /\ rd = [r \in RIds |-> [st |-> "idle", key |-> CHOOSE k \in Keys : TRUE,
                           floor |-> 0, val |-> 0, ver |-> 0]]
  /\ execs = {}
  /\ extVer = [k \in Keys |-> 0]
  /\ act = [a |-> "Init"]
  /\ swDown = FALSE
  /\ lostKeys = {}

-----------------------------------------------------------------------------
(***************************************************************************)
(* Algorithm 1 for a WRITE (S6.2.1): stamp ver_next and increment it; a    *)
(* replicated key's write goes to servers chosen freely from ALL servers   *)
(* (S6.5: one or more, in the replica set or not); other keys go home.     *)
(* A key marked for removal sends its writes home (S6.3).  With            *)
(* at-most-once the switch sends the write to the detector Detector(w) and *)
(* lists the other chosen replicas in the header (S6.4).                   *)
(* This is a helper: it sets every switch variable and net.                *)
(***************************************************************************)
SwitchWrite(w, k) ==
  LET v == verNext
      h == Hash(k) IN
  /\ verNext' = v + 1
  /\ IF InDir(k) /\ markVer[h] = 0
       THEN /\ IF EnableAtMostOnce
                 THEN \E others \in SUBSET (Servers \ {Detector(w)}) :
                        net' = net \cup {WReq(w, w, k, v, Detector(w), TRUE, others)}
                 ELSE \E D \in (SUBSET Servers) \ {{}} :
                        net' = net \cup {WReq(w, w, k, v, d, FALSE, {}) : d \in D}
            /\ UNCHANGED <<rkeys, rset, verCompleted, markVer>>
       ELSE /\ net' = net \cup {WReq(w, w, k, v, Home[k], EnableAtMostOnce, {})}
            \* BUG (BugEarlyRemove): the entry is dropped as soon as the
            \* write is sent home, before its WRITE-REPLY proves home has it.
            /\ IF BugEarlyRemove /\ k \in rkeys /\ markVer[h] # 0
                 THEN /\ rkeys' = rkeys \ {k}
                      /\ rset' = [rset EXCEPT ![h] = {}]
                      /\ verCompleted' = [verCompleted EXCEPT ![h] = 0]
                      /\ markVer' = [markVer EXCEPT ![h] = 0]
                 ELSE UNCHANGED <<rkeys, rset, verCompleted, markVer>>

(* Algorithm 1 for a READ: a replicated key's read goes to one member of   *)
(* its rset (any member: the selection policy of S6.5 is not a safety      *)
(* matter); other keys' reads go to the home server.  The switch matches   *)
(* the key's hash (S6.6).                                                  *)
SwitchRead(r, k) ==
  /\ IF InDir(k)
       THEN \E s \in rset[Hash(k)] : net' = net \cup {RReq(r, k, s)}
       ELSE net' = net \cup {RReq(r, k, Home[k])}
  /\ UNCHANGED <<verNext, rkeys, rset, verCompleted, markVer>>

(* A client issues write w on key k; it reaches the switch (Algorithm 1).  *)
(* Writes are issued in id order only to avoid renamings of one behaviour. *)
IssueWrite(w, k) ==
  /\ SwitchUp
  /\ wr[w].st = "idle"
  /\ IF w = 1 THEN TRUE ELSE wr[w - 1].st # "idle"
  /\ wr' = [wr EXCEPT ![w] = [st |-> "pend", key |-> k, floor |-> Floor(k), ver |-> 0]]
  /\ SwitchWrite(w, k)
  /\ act' = [a |-> "IssueWrite", w |-> w, key |-> k]
  /\ UNCHANGED <<store, ctab, used, rd, execs, extVer>>

(* A client that has no reply yet resends its write with the same request  *)
(* id; the switch treats it as a new WRITE and stamps a new version        *)
(* (Alg. 1 line 2).  Without S6.4 a server cannot tell it is a retry.      *)
RetryWrite(w) ==
  /\ SwitchUp
  /\ wr[w].st = "pend"
  /\ used.retry < MaxRetry
  /\ used' = [used EXCEPT !.retry = @ + 1]
  /\ SwitchWrite(w, wr[w].key)
  /\ act' = [a |-> "RetryWrite", w |-> w]
  /\ UNCHANGED <<store, ctab, wr, rd, execs, extVer>>

(* A client issues read r on key k (Algorithm 1, READ).                    *)
IssueRead(r, k) ==
  /\ SwitchUp
  /\ rd[r].st = "idle"
  /\ IF r = 1 THEN TRUE ELSE rd[r - 1].st # "idle"
  /\ rd' = [rd EXCEPT ![r] = [st |-> "pend", key |-> k, floor |-> Floor(k),
                              val |-> 0, ver |-> 0]]
  /\ SwitchRead(r, k)
  /\ act' = [a |-> "IssueRead", r |-> r, key |-> k]
  /\ UNCHANGED <<store, ctab, used, wr, execs, extVer>>

(* A client resends a read it has no reply for.                            *)
RetryRead(r) ==
  /\ SwitchUp
  /\ rd[r].st = "pend"
  /\ used.retry < MaxRetry
  /\ used' = [used EXCEPT !.retry = @ + 1]
  /\ SwitchRead(r, rd[r].key)
  /\ act' = [a |-> "RetryRead", r |-> r]
  /\ UNCHANGED <<store, ctab, wr, rd, execs, extVer>>

-----------------------------------------------------------------------------
(***************************************************************************)
(* A server receives a WRITE (S4.3, S6.2): it stores (value, version) only *)
(* if the version is higher than the one it has, and replies with the      *)
(* write's version either way (a lower write is superseded, not failed).   *)
(* With at-most-once (S6.4) the detector first looks the request id up in  *)
(* its client table: a duplicate is answered with the recorded version and *)
(* neither re-executed nor forwarded; otherwise the detector executes it,  *)
(* records it and forwards it, with its version, to the listed replicas.   *)
(***************************************************************************)
ServerWrite(m) ==
  /\ UNCHANGED crashVars
  /\ m \in net
  /\ m.t = "WREQ"
  /\ \E dup \in DupChoices :
     \* S6.6 request chaining: a misrouted write goes on to its key's home,
     \* which is its detector if at-most-once is on; nothing runs here.
     \* BUG (BugNoChaining): the server executes it.
     IF Misrouted(m.dst, m.key) /\ ~BugNoChaining
     THEN /\ net' = Remaining(m, dup)
                    \cup {WReq(m.w, m.val, m.key, m.ver, Home[m.key], EnableAtMostOnce, {})}
          /\ used' = CountDup(dup)
          /\ act' = [a |-> "ServerWrite", via |-> "ServerChainWrite", m |-> m, dup |-> dup]
          /\ UNCHANGED <<store, execs, ctab>>
     ELSE
     LET s      == m.dst
         k      == m.key
         cached == {e \in ctab[s] : e[1] = m.w}
         isDup  == EnableAtMostOnce /\ m.det /\ m.w # 0 /\ cached # {}
         \* BUG (BugAcceptLower): any version overwrites the stored one.
         apply  == ~isDup /\ (BugAcceptLower \/ m.ver > store[s][k].ver)
         rver   == IF isDup THEN (CHOOSE e \in cached : TRUE)[2] ELSE m.ver
         \* A reply names its server so that Alg. 2 can put it in rset, which
         \* claims the server stores version rver.  A duplicate's recorded
         \* version may have been executed elsewhere (the entry came with a
         \* migrated client table): then the reply names no server (0).
         \* BUG (BugBlindDupReply): the detector names itself regardless.
         rsrc   == IF isDup /\ store[s][k].ver < rver /\ ~BugBlindDupReply THEN 0 ELSE s
         fwds   == IF m.det /\ ~isDup
                     THEN {WReq(m.w, m.val, k, m.ver, d, FALSE, {}) : d \in m.fwd}
                     ELSE {}
     IN /\ store' = IF apply
                      THEN [store EXCEPT ![s][k] = [val |-> m.val, ver |-> m.ver]]
                      ELSE store
        /\ execs' = IF apply /\ m.w # 0 THEN execs \cup {<<m.w, m.ver>>} ELSE execs
        /\ ctab' = IF EnableAtMostOnce /\ m.det /\ m.w # 0 /\ ~isDup
                     THEN [ctab EXCEPT ![s] = @ \cup {<<m.w, m.ver>>}]
                     ELSE ctab
        /\ net' = Remaining(m, dup) \cup fwds
                  \cup (IF WriteAcked(apply, isDup) THEN {WRepOut(m.w, k, rver, rsrc)} ELSE {})
        /\ used' = CountDup(dup)
        /\ act' = [a |-> "ServerWrite", m |-> m, dup |-> dup]
  /\ UNCHANGED <<verNext, rkeys, rset, verCompleted, markVer, wr, rd, extVer>>

(* A server receives a READ and replies with its value and version (S4.3). *)
ServerRead(m) ==
  /\ UNCHANGED crashVars
  /\ m \in net
  /\ m.t = "RREQ"
  /\ \E dup \in DupChoices :
     LET s == m.dst IN
     \* S6.6 request chaining, as for writes.
     /\ IF Misrouted(s, m.key) /\ ~BugNoChaining
          THEN /\ net' = Remaining(m, dup) \cup {RReq(m.r, m.key, Home[m.key])}
               /\ act' = [a |-> "ServerRead", via |-> "ServerChainRead", m |-> m, dup |-> dup]
          ELSE /\ net' = Remaining(m, dup)
                        \cup {RRepOut(m.r, m.key, store[s][m.key].val, store[s][m.key].ver, s)}
               /\ act' = [a |-> "ServerRead", m |-> m, dup |-> dup]
     /\ used' = CountDup(dup)
  /\ UNCHANGED <<verNext, rkeys, rset, verCompleted, markVer, store, ctab, wr, rd,
                 execs, extVer>>

(* The home server receives a virtual write (S6.3): it raises its stored   *)
(* version to the one in ver_completed, keeping its value, and forwards    *)
(* that value and version to the chosen replicas; it and they reply so     *)
(* that Alg. 2 adds them to rset.                                           *)
ServerVirtualWrite(m) ==
  /\ UNCHANGED crashVars
  /\ m \in net
  /\ m.t = "VW"
  /\ \E dup \in DupChoices :
     LET h   == m.dst
         k   == m.key
         cur == store[h][k]
         nv  == Max(cur.ver, m.ver)
     IN /\ store' = [store EXCEPT ![h][k] = [val |-> cur.val, ver |-> nv]]
        /\ net' = Remaining(m, dup)
                  \cup {WReq(0, cur.val, k, nv, d, FALSE, {}) : d \in m.fwd}
                  \cup {WRep(0, k, nv, h)}
        /\ used' = CountDup(dup)
        /\ act' = [a |-> "ServerVirtualWrite", m |-> m, dup |-> dup]
  /\ UNCHANGED <<verNext, rkeys, rset, verCompleted, markVer, ctab, wr, rd, execs,
                 extVer>>

-----------------------------------------------------------------------------
(***************************************************************************)
(* Algorithm 2 (S6.2.2) as functions of the reply (key k, version v, from  *)
(* server s): a higher version updates ver_completed and resets the        *)
(* replica set to {s}; an equal version adds s.                            *)
(***************************************************************************)
Alg2Rset(k, v, s) ==
  LET h == Hash(k) IN
  IF ~InDir(k) \/ s = 0 THEN rset
  ELSE IF v > verCompleted[h]
         \* BUG (BugNoReset): stale replicas stay in the set.
         THEN [rset EXCEPT ![h] = IF BugNoReset THEN @ \cup {s} ELSE {s}]
  \* BUG (BugAddOnLower): a server replying with an older version joins.
  ELSE IF v = verCompleted[h] \/ BugAddOnLower
         THEN [rset EXCEPT ![h] = @ \cup {s}]
  ELSE rset

Alg2VerCompleted(k, v, s) ==
  IF InDir(k) /\ s # 0 /\ v > verCompleted[Hash(k)]
    THEN [verCompleted EXCEPT ![Hash(k)] = v]
    ELSE verCompleted

(***************************************************************************)
(* Not in the paper (a gap this model found in S6.4): a duplicate answered *)
(* from a migrated client-table entry may carry a version whose value sits *)
(* on a server the directory does not know (its own reply was lost), and   *)
(* forwarding it would externalize that version.  Such a reply names no    *)
(* server; the switch forwards it only if the directory already covers    *)
(* its version (key unreplicated, or version <= ver_completed), and drops  *)
(* it otherwise: the client retries later, once a newer write has been     *)
(* externalized.  This costs liveness for that retry, not safety.          *)
(***************************************************************************)
Unvouched(m) ==
  \* BUG (BugForwardUnvouched): no reply is ever held back.
  /\ ~BugForwardUnvouched
  /\ m.t = "WREP" /\ m.src = 0 /\ ~NoDir(m)
  /\ InDir(m.key) /\ m.ver > verCompleted[Hash(m.key)]

(***************************************************************************)
(* The switch receives a WRITE-REPLY: Algorithm 2, then the removal rule   *)
(* of S6.3 (a key marked for removal leaves the directory once a           *)
(* WRITE-REPLY from its home, for a write sent there after the mark,       *)
(* passes), then it forwards the reply to the client.  Forwarding a        *)
(* client's reply externalizes its version (S6.2.3).  A virtual write's    *)
(* reply (w = 0) goes to the controller and externalizes nothing.          *)
(***************************************************************************)
SwitchWriteReply(m) ==
  /\ SwitchUp
  /\ m \in net
  /\ m.t = "WREP"
  /\ ~Unvouched(m)
  /\ \E dup \in DupChoices, lost \in ClientLossChoices :
     LET k == m.key
         h == Hash(k)
         v == m.ver
         s == m.src
         removeNow == /\ k \in rkeys /\ markVer[h] # 0 /\ m.w # 0 /\ ~NoDir(m)
                      /\ s = Home[k] /\ RemovalCovers(v, markVer[h])
     IN /\ IF removeNow
             THEN /\ rkeys' = rkeys \ {k}
                  /\ rset' = [rset EXCEPT ![h] = {}]
                  /\ verCompleted' = [verCompleted EXCEPT ![h] = 0]
                  /\ markVer' = [markVer EXCEPT ![h] = 0]
             ELSE IF NoDir(m) THEN UNCHANGED <<rkeys, rset, verCompleted, markVer>>
             ELSE /\ rset' = Alg2Rset(k, v, s)
                  /\ verCompleted' = Alg2VerCompleted(k, v, s)
                  /\ UNCHANGED <<rkeys, markVer>>
        /\ extVer' = IF m.w # 0 THEN [extVer EXCEPT ![k] = Max(@, v)] ELSE extVer
        /\ wr' = IF m.w # 0 /\ wr[m.w].st = "pend" /\ ~lost
                   THEN [wr EXCEPT ![m.w].st = "done", ![m.w].ver = v]
                   ELSE wr
        /\ net' = Remaining(m, dup)
        /\ used' = CountDup(dup)
        /\ IF NoDir(m)
             THEN act' = [a |-> "SwitchWriteReply", via |-> "SwitchNoDirReply", m |-> m,
                          dup |-> dup, lost |-> lost]
             ELSE act' = [a |-> "SwitchWriteReply", m |-> m, dup |-> dup, lost |-> lost]
  /\ UNCHANGED <<verNext, store, ctab, rd, execs>>

(* The switch drops a duplicate's reply that no server vouches for (see    *)
(* Unvouched above); the packet is consumed, nothing else changes.         *)
SwitchDropUnvouched(m) ==
  /\ SwitchUp
  /\ m \in net
  /\ Unvouched(m)
  /\ \E dup \in DupChoices :
       /\ net' = Remaining(m, dup)
       /\ used' = CountDup(dup)
       /\ act' = [a |-> "SwitchDropUnvouched", m |-> m, dup |-> dup]
  /\ UNCHANGED <<verNext, rkeys, rset, verCompleted, markVer, store, ctab, wr, rd,
                 execs, extVer>>

(* The switch receives a READ-REPLY: Algorithm 2 as well (a read can       *)
(* externalize a new version before its WRITE-REPLY, S6.2.3), then the     *)
(* reply goes to the client.                                               *)
SwitchReadReply(m) ==
  /\ SwitchUp
  /\ m \in net
  /\ m.t = "RREP"
  /\ \E dup \in DupChoices, lost \in ClientLossChoices :
     LET k == m.key IN
     /\ rset' = IF NoDir(m) THEN rset ELSE Alg2Rset(k, m.ver, m.src)
     /\ verCompleted' = IF NoDir(m) THEN verCompleted ELSE Alg2VerCompleted(k, m.ver, m.src)
     /\ extVer' = [extVer EXCEPT ![k] = Max(@, m.ver)]
     /\ rd' = IF rd[m.r].st = "pend" /\ ~lost
                THEN [rd EXCEPT ![m.r].st = "done", ![m.r].val = m.val,
                                ![m.r].ver = m.ver]
                ELSE rd
     /\ net' = Remaining(m, dup)
     /\ used' = CountDup(dup)
     /\ IF NoDir(m)
          THEN act' = [a |-> "SwitchReadReply", via |-> "SwitchNoDirReply", m |-> m,
                       dup |-> dup, lost |-> lost]
          ELSE act' = [a |-> "SwitchReadReply", m |-> m, dup |-> dup, lost |-> lost]
  /\ UNCHANGED <<verNext, rkeys, markVer, store, ctab, wr, execs>>

-----------------------------------------------------------------------------
(***************************************************************************)
(* The controller adds a replicated key (S6.3): rset = {home},             *)
(* ver_completed = ver_next - 1 (the largest version any write to the key  *)
(* at home can carry), then rkeys.  Nothing moves until later writes.      *)
(* With at-most-once, writes to the key are paused (modelled: none in      *)
(* flight) and the home's client-table entries are copied to all servers  *)
(* (S6.4), because a retry will now meet the detector, not home.           *)
(***************************************************************************)
AddKey(k) ==
  /\ SwitchUp
  /\ k \notin rkeys
  \* S6.6: of keys sharing a hash, only one is replicated.
  \* BUG (BugReplicateBoth): a second one takes over the hash's entry.
  /\ ~InDir(k) \/ BugReplicateBoth
  /\ used.add < MaxAdd
  /\ EnableAtMostOnce => Drained(k)
  /\ rkeys' = rkeys \cup {k}
  /\ rset' = [rset EXCEPT ![Hash(k)] = {Home[k]}]
  /\ verCompleted' = [verCompleted EXCEPT ![Hash(k)] = verNext - 1]
  /\ ctab' = IF EnableAtMostOnce /\ ~BugNoTableCopy
               THEN LET hk == {e \in ctab[Home[k]] : wr[e[1]].key = k}
                    IN [s \in Servers |-> ctab[s] \cup hk]
               ELSE ctab
  /\ used' = [used EXCEPT !.add = @ + 1]
  /\ act' = [a |-> "AddKey", key |-> k]
  /\ UNCHANGED <<verNext, markVer, store, net, wr, rd, execs, extVer>>

(* The controller marks a key for removal (S6.3); its next write goes      *)
(* home and the entry goes on that write's reply.  With at-most-once,      *)
(* writes are paused and the servers' client tables for the key are       *)
(* aggregated at home (S6.4), since retries will now go home.              *)
MarkRemove(k) ==
  /\ SwitchUp
  /\ k \in rkeys
  /\ markVer[Hash(k)] = 0
  /\ used.rem < MaxRemove
  /\ EnableAtMostOnce => Drained(k)
  /\ markVer' = [markVer EXCEPT ![Hash(k)] = verNext]
  /\ ctab' = IF EnableAtMostOnce /\ ~BugNoTableCopy
               THEN [ctab EXCEPT ![Home[k]] =
                       @ \cup UNION {{e \in ctab[s] : wr[e[1]].key = k} : s \in Servers}]
               ELSE ctab
  /\ used' = [used EXCEPT !.rem = @ + 1]
  /\ act' = [a |-> "MarkRemove", key |-> k]
  /\ UNCHANGED <<verNext, rkeys, rset, verCompleted, store, net, wr, rd, execs, extVer>>

(* The controller issues a virtual write for a read-mostly key (S6.3) to   *)
(* its home server, carrying ver_completed and the replicas to copy to.    *)
(* It does so only while home is in the replica set (otherwise home's copy *)
(* may be stale) and, in the protocol as modelled, only once no write to   *)
(* the key is in flight: a write stamped before ver_completed that reaches *)
(* home after the virtual write would be rejected as superseded yet        *)
(* acknowledged, and its value lost (BugVWNoDrain shows TLC finds this).   *)
VirtualWrite(k) ==
  /\ SwitchUp
  /\ k \in rkeys
  /\ markVer[Hash(k)] = 0
  /\ Home[k] \in rset[Hash(k)]
  /\ used.vw < MaxVW
  /\ ~BugVWNoDrain => Drained(k)
  /\ \E D \in (SUBSET (Servers \ {Home[k]})) \ {{}} :
       net' = net \cup {VWReq(k, verCompleted[Hash(k)], Home[k], D)}
  /\ used' = [used EXCEPT !.vw = @ + 1]
  /\ act' = [a |-> "VirtualWrite", key |-> k]
  /\ UNCHANGED <<verNext, rkeys, rset, verCompleted, markVer, store, ctab, wr, rd,
                 execs, extVer>>

-----------------------------------------------------------------------------
(***************************************************************************)
(* The controller ends a stuck removal (issue 16; the fix).  The key is    *)
(* marked; the controller pauses its writes and waits for them to drain    *)
(* (no WRITE of the key in flight: the S6.4 transition pause, as AddKey    *)
(* and MarkRemove under at-most-once and VirtualWrite), reads every        *)
(* server's copy and takes the newest, and has the switch stamp a rewrite  *)
(* of it with ver_next, at or above the mark, sent home (P-21 in           *)
(* p4/pegasus.p4: the controller's write passes the pause from the CPU     *)
(* port).  Home applies it if it still holds the version the controller    *)
(* read, and its reply ends the removal (SwitchRewriteReply).  Why it is   *)
(* safe: the rewrite raises home's version without a client's new value,   *)
(* so it would hide a write of the key stamped below it that reached home  *)
(* after it.  The pause leaves none: every write stamped before it has     *)
(* arrived (the newest copy carries the latest of them) or was lost (its   *)
(* retry is stamped above), every write stamped after it has a higher      *)
(* version.  The pause and the drain are one step here: no client write of *)
(* the key is stamped between the drain and the rewrite's stamp.           *)
(* BUG (BugRewriteUncond, BugRewriteNoDrain): neither pause nor drain.     *)
(* BUG (BugRewriteHomeCopy): the rewrite carries home's copy.              *)
(***************************************************************************)
RemovalRewrite(k) ==
  /\ SwitchUp
  /\ used.rw < MaxRewrite
  /\ k \in rkeys /\ markVer[Hash(k)] # 0
  \* the controller's previous rewrite of k has been answered (or lost)
  /\ ~\E m \in net : m.t \in {"RW", "RWREP"} /\ m.key = k
  /\ BugRewriteUncond \/ BugRewriteNoDrain \/ Drained(k)
  /\ LET newest == IF BugRewriteHomeCopy THEN Home[k]
                   ELSE CHOOSE s \in Servers :
                          \A q \in Servers : store[q][k].ver <= store[s][k].ver
     IN net' = net \cup {RWReq(k, verNext, store[newest][k].val, store[Home[k]][k].ver,
                               Home[k])}
  /\ verNext' = verNext + 1
  /\ used' = [used EXCEPT !.rw = @ + 1]
  /\ act' = [a |-> "RemovalRewrite", key |-> k]
  /\ UNCHANGED <<rkeys, rset, verCompleted, markVer, store, ctab, wr, rd, execs, extVer>>

(* Home receives the rewrite: it stores the newest copy's value under the  *)
(* rewrite's version if it still holds the version the controller read,    *)
(* and answers.  Not a client's write: no client table, nothing            *)
(* externalized (the reply goes to the controller).  BUG                   *)
(* (BugRewriteUncond): home relabels its own value whatever it holds, as a *)
(* virtual write at a fresh version would.                                 *)
ServerRewrite(m) ==
  /\ UNCHANGED crashVars
  /\ m \in net
  /\ m.t = "RW"
  /\ \E dup \in DupChoices :
     LET h     == m.dst
         k     == m.key
         cur   == store[h][k]
         x     == IF BugRewriteUncond THEN cur.val ELSE m.val
         apply == m.ver > cur.ver /\ (BugRewriteUncond \/ cur.ver = m.exp)
     IN /\ store' = IF apply THEN [store EXCEPT ![h][k] = [val |-> x, ver |-> m.ver]]
                    ELSE store
        /\ net' = Remaining(m, dup) \cup (IF apply THEN {RWRep(k, m.ver, h)} ELSE {})
        /\ used' = CountDup(dup)
        /\ act' = [a |-> "ServerRewrite", m |-> m, dup |-> dup]
  /\ UNCHANGED <<verNext, rkeys, rset, verCompleted, markVer, ctab, wr, rd, execs, extVer>>

(* The switch receives home's reply to the rewrite: a home WRITE-REPLY to  *)
(* the removal rule (the implementation's is one), so the removal ends;    *)
(* otherwise (the key was removed, or removed and added again, meanwhile)  *)
(* Algorithm 2 if the key is replicated.  It goes to the controller:       *)
(* nothing externalized.                                                   *)
SwitchRewriteReply(m) ==
  /\ SwitchUp
  /\ m \in net
  /\ m.t = "RWREP"
  /\ \E dup \in DupChoices :
     LET k == m.key
         h == Hash(k)
         removeNow == /\ k \in rkeys /\ markVer[h] # 0 /\ m.src = Home[k]
                      /\ RemovalCovers(m.ver, markVer[h])
     IN /\ IF removeNow
             THEN /\ rkeys' = rkeys \ {k}
                  /\ rset' = [rset EXCEPT ![h] = {}]
                  /\ verCompleted' = [verCompleted EXCEPT ![h] = 0]
                  /\ markVer' = [markVer EXCEPT ![h] = 0]
             ELSE IF k \in rkeys
             THEN /\ rset' = Alg2Rset(k, m.ver, m.src)
                  /\ verCompleted' = Alg2VerCompleted(k, m.ver, m.src)
                  /\ UNCHANGED <<rkeys, markVer>>
             ELSE UNCHANGED <<rkeys, rset, verCompleted, markVer>>
        /\ net' = Remaining(m, dup)
        /\ used' = CountDup(dup)
        /\ IF removeNow
             THEN act' = [a |-> "SwitchRewriteReply", via |-> "RewriteRemoveKey", m |-> m,
                          dup |-> dup]
             ELSE act' = [a |-> "SwitchRewriteReply", m |-> m, dup |-> dup]
  /\ UNCHANGED <<verNext, store, ctab, wr, rd, execs, extVer>>

-----------------------------------------------------------------------------
(* The network drops a packet (S4.3: links between the switch and the      *)
(* servers may drop, reorder or duplicate packets).  Reordering is the     *)
(* free choice of which packet to deliver; duplication is in delivery.     *)
Lose(m) ==
  /\ UNCHANGED crashVars
  /\ m \in net
  /\ used.loss < MaxLoss
  /\ net' = net \ {m}
  /\ used' = [used EXCEPT !.loss = @ + 1]
  /\ act' = [a |-> "Lose", m |-> m]
  /\ UNCHANGED <<verNext, rkeys, rset, verCompleted, markVer, store, ctab, wr, rd,
                 execs, extVer>>

-----------------------------------------------------------------------------
(***************************************************************************)
(* Switch crash and recovery (ours; docs/pegasus.md "Switch crash and      *)
(* recovery", controller.RecoverSwitch; docs/specs/pegasus.md section 12). *)
(*                                                                         *)
(* SwitchCrash: the switch restarts with empty registers and tables: it    *)
(* loses ver_next (the fresh switch's is 1), and the directory: rset,      *)
(* ver_completed and the removal marks; the switch's copy of rkeys goes    *)
(* too, while the controller keeps the list of replicated keys durably     *)
(* (lostKeys).  The switch holds no at-most-once state (detectors and      *)
(* client tables live on the servers, durably).  Every reply in flight is  *)
(* lost: it was queued in the switch or would reach it while it is down.   *)
(* A packet going to a server (a WRITE, READ, virtual write or rewrite)    *)
(* may already have left the switch and still arrive; the spec cannot      *)
(* tell it from one queued in the switch, so it stays in flight and the    *)
(* down switch may drop it (SwitchDownDrop) or a server may receive it.    *)
(* Servers go on with what reaches them; their replies, and their copies   *)
(* to other servers, reach a switch that drops them.                       *)
(***************************************************************************)
ServerBound == {"WREQ", "RREQ", "VW", "RW"}

SwitchCrash ==
  /\ ~swDown
  /\ used.crash < MaxSwitchCrash
  /\ swDown' = TRUE
  /\ lostKeys' = rkeys
  /\ verNext' = 1
  /\ rkeys' = {}
  /\ rset' = [h \in Hashes |-> {}]
  /\ verCompleted' = [h \in Hashes |-> 0]
  /\ markVer' = [h \in Hashes |-> 0]
  /\ net' = {m \in net : m.t \in ServerBound}
  /\ used' = [used EXCEPT !.crash = @ + 1]
  /\ act' = [a |-> "SwitchCrash"]
  /\ UNCHANGED <<store, ctab, wr, rd, execs, extVer>>

(* The down (or restarted but still closed) switch drops a packet: any     *)
(* packet that reaches it, and a server-bound one that was still queued in *)
(* it at the crash.  Not a fault of the network: no budget.                *)
SwitchDownDrop(m) ==
  /\ swDown
  /\ m \in net
  /\ net' = net \ {m}
  /\ act' = [a |-> "SwitchDownDrop", m |-> m]
  /\ UNCHANGED <<verNext, rkeys, rset, verCompleted, markVer, store, ctab, used, wr, rd,
                 execs, extVer, swDown, lostKeys>>

(***************************************************************************)
(* RecoverSwitch: the controller's recovery of the fresh switch, as        *)
(* controller.RecoverSwitch does it: the switch is closed to clients (P-0: *)
(* only the routes to servers and the controller are installed); the       *)
(* controller waits the drain time, so that nothing the old switch sent is *)
(* still on its way (here: no packet in flight; those that were are        *)
(* delivered, lost or dropped by the closed switch); it asks every server  *)
(* for the highest version it was sent (MAX_VERSION, durable); for every   *)
(* key that was replicated (lostKeys) it reads every server's copy and     *)
(* writes the newest to home (REPLICATE: home applies it if it is newer),  *)
(* and migrates the key's client tables to home (as MarkRemove does);      *)
(* then it sets ver_next above every version, installs the clients'        *)
(* routes and opens the switch.  Every key is now unreplicated.            *)
(*                                                                         *)
(* One step here.  Why that hides no interleaving: after the drain no      *)
(* packet is in flight and the closed switch admits no client request, so  *)
(* from then until the switch opens nothing changes a server's state but   *)
(* the controller's own requests (each resent until answered, and a resent *)
(* REPLICATE is applied once: home takes only a higher version).  The     *)
(* controller's reads and writes therefore see and leave the same states  *)
(* as if they happened at once, at the opening.                            *)
(*                                                                         *)
(* ver_next: the spec takes 1 + the highest version any server stores.     *)
(* The implementation's MAX_VERSION is the highest version a server was   *)
(* sent, stored or not, so its ver_next is at least the spec's; every      *)
(* version a client has seen or a client table records was stored on some  *)
(* server (a superseded write's version is below the version that         *)
(* superseded it), so the spec's lower choice is the harder case.          *)
(*                                                                         *)
(* Why it is enough: afterwards every key is unreplicated and its home     *)
(* holds its newest version (nothing in flight could change that), and     *)
(* every later version is higher than any stored one.                      *)
(* BUG (BugRecoverVerNext): ver_next stays the fresh switch's 1.           *)
(* BUG (BugRecoverNoCopy): no newest copy is written to home.              *)
(* BUG (BugRecoverNoDrain): no drain: packets the old switch sent may     *)
(* reach servers after the controller's reads.                             *)
(***************************************************************************)
NewestAt(k) == CHOOSE s \in Servers : \A q \in Servers : store[q][k].ver <= store[s][k].ver

TopVersion == LET vs == {store[s][k].ver : s \in Servers, k \in Keys}
              IN CHOOSE v \in vs : \A u \in vs : u <= v

RecoverSwitch ==
  /\ swDown
  /\ BugRecoverNoDrain \/ net = {}
  /\ store' = [s \in Servers |-> [k \in Keys |->
                 IF /\ k \in lostKeys /\ s = Home[k] /\ ~BugRecoverNoCopy
                    /\ store[NewestAt(k)][k].ver > store[s][k].ver
                   THEN store[NewestAt(k)][k]
                   ELSE store[s][k]]]
  /\ ctab' = IF EnableAtMostOnce /\ ~BugNoTableCopy
               THEN [s \in Servers |->
                       ctab[s] \cup {e \in UNION {ctab[q] : q \in Servers} :
                                       wr[e[1]].key \in lostKeys /\ Home[wr[e[1]].key] = s}]
               ELSE ctab
  /\ verNext' = IF BugRecoverVerNext THEN verNext ELSE TopVersion + 1
  /\ swDown' = FALSE
  /\ lostKeys' = {}
  /\ act' = [a |-> "RecoverSwitch"]
  /\ UNCHANGED <<rkeys, rset, verCompleted, markVer, net, used, wr, rd, execs, extVer>>

Next ==
  \/ \E w \in WIds, k \in Keys : IssueWrite(w, k)
  \/ \E w \in WIds : RetryWrite(w)
  \/ \E r \in RIds, k \in Keys : IssueRead(r, k)
  \/ \E r \in RIds : RetryRead(r)
  \/ \E m \in net : ServerWrite(m) \/ ServerRead(m) \/ ServerVirtualWrite(m)
  \/ \E m \in net : SwitchWriteReply(m) \/ SwitchReadReply(m) \/ SwitchDropUnvouched(m)
  \/ \E k \in Keys : AddKey(k) \/ MarkRemove(k) \/ VirtualWrite(k)
  \/ \E k \in Keys : RemovalRewrite(k)
  \/ \E m \in net : ServerRewrite(m) \/ SwitchRewriteReply(m)
  \/ \E m \in net : Lose(m)
  \/ SwitchCrash \/ RecoverSwitch
  \/ \E m \in net : SwitchDownDrop(m)

Spec == Init /\ [][Next]_vars

\* Action coverage for ./innet verify (docs/layout.md; as in Lake.tla): not a
\* property.  The first time a newly found state carries a label, print it;
\* TLC register 1 holds the labels printed so far.  The label is act.a, or
\* act.via where a step names the case it took (S6.6: a request chained to
\* its home, a marked reply forwarded without Algorithm 2).
ASSUME TLCm!TLCSet(1, {})
CoverageLabel == IF "via" \in DOMAIN act THEN act.via ELSE act.a
ActionCoverage ==
    \/ CoverageLabel \in TLCm!TLCGet(1)
    \/ /\ TLCm!TLCSet(1, TLCm!TLCGet(1) \cup {CoverageLabel})
       /\ TLCm!PrintT(<<"innet-action", CoverageLabel>>)

-----------------------------------------------------------------------------
(***************************************************************************)
(* Directory invariant (S6.2.3): the directory points only at replicas     *)
(* holding the latest externalized write of the key or a newer one, and    *)
(* ver_completed is at least that write's version.  The paper states "at   *)
(* least one" replica; reads may go to ANY member of rset, so what reads   *)
(* rely on, and what is checked, is that every member is fresh.  An        *)
(* unreplicated key's home must be fresh, since its reads go there.        *)
(* After a switch crash the directory is empty (rkeys = {}); the keys it   *)
(* lost (lostKeys) are exempt from DirHomeFresh until RecoverSwitch has    *)
(* written their newest copies home (no read is routed meanwhile); every   *)
(* other key's home must stay fresh through the crash.                     *)
(***************************************************************************)
DirVerCompleted == \A k \in rkeys : verCompleted[Hash(k)] >= extVer[k]
DirRsetFresh    == \A k \in rkeys : rset[Hash(k)] # {} /\
                     \A s \in rset[Hash(k)] : store[s][k].ver >= extVer[k]
DirHomeFresh    == \A k \in Keys \ (rkeys \cup lostKeys) : store[Home[k]][k].ver >= extVer[k]
DirectoryInv    == DirVerCompleted /\ DirRsetFresh /\ DirHomeFresh

(***************************************************************************)
(* Linearizability surrogate, per key, over the recorded history: the      *)
(* version order is a valid linearization.                                 *)
(*  - a read returns a version at least that of every operation on its key *)
(*    that completed before the read began (so never a value older than a  *)
(*    completed write, nor older than what an earlier read returned);      *)
(*  - a write that began after an operation completed gets a higher        *)
(*    version;                                                             *)
(*  - the value a read returns is the value of the latest effective write  *)
(*    at or below the returned version (no value survives under a version  *)
(*    that is not its own, e.g. through a virtual write).                  *)
(* This is stronger than linearizability (it fixes the order), and it is   *)
(* the order the paper's argument (S6.2.3) uses.                           *)
(***************************************************************************)
\* Value form of the same rule: the returned value was written (took effect)
\* at or above the floor, i.e. it is not older than the last completed write.
FreshValue(k, x, floor) ==
  IF x = 0 THEN floor = 0
  ELSE \E e \in Effective(k) : e[1] = x /\ e[2] >= floor
LinReadsFresh  == \A r \in RIds : rd[r].st = "done" =>
                    /\ rd[r].ver >= rd[r].floor
                    /\ FreshValue(rd[r].key, rd[r].val, rd[r].floor)
LinWritesAfter == \A w \in WIds : wr[w].st = "done" => wr[w].ver > wr[w].floor
LinReadValues  == \A r \in RIds : rd[r].st = "done" =>
                    rd[r].val = ValueAt(rd[r].key, rd[r].ver)
Linearizable   == LinReadsFresh /\ LinWritesAfter /\ LinReadValues

(***************************************************************************)
(* At-most-once (S6.4): a write request, however often it is retried or    *)
(* duplicated, executes under one version only (one execution, possibly    *)
(* on several replicas).                                                   *)
(***************************************************************************)
AtMostOnce == \A w \in WIds : Cardinality({e \in execs : e[1] = w}) <= 1

=============================================================================
