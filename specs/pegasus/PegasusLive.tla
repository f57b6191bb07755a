---------------------------- MODULE PegasusLive ----------------------------
(***************************************************************************)
(* Liveness of Pegasus under fairness (issue 13, item 5).                  *)
(*                                                                         *)
(* Weakly fair: every step of a server or of the switch on a packet in     *)
(* flight (per packet type).  Strongly fair: a client's retry of a write   *)
(* or read that has nothing in flight any more (its request, forwards or   *)
(* reply was lost): the paper's clients retry on a timeout, and the retry  *)
(* is what repairs a loss.  Not fair: clients issuing operations, the      *)
(* controller's add/remove/virtual-write policy, losses, duplicates.       *)
(* Weakly fair as well (issue 16's fix, MaxRewrite > 0): the controller's  *)
(* removal rewrite of a marked key (RemovalRewrite) and the handling of    *)
(* its packets; with MaxRewrite = 0 (the default) none is ever enabled.    *)
(* MaxRetry must cover the faults (one retry per loss or lost reply).     *)
(*                                                                         *)
(* Buggy rules, swapped in by a .cfg (Hook <- Bug):                        *)
(*   AckOnlyApplied  - a server answers a WRITE only if it applied it: a  *)
(*                     write superseded by a newer version never completes*)
(*                     (S6.2.1 says it completes).                         *)
(*   RemovalExact    - removal ends only on a home reply of exactly the    *)
(*                     marked version: when that write is superseded or    *)
(*                     the version went to another key, the key stays in   *)
(*                     the directory and its rset never drains.            *)
(***************************************************************************)
EXTENDS Pegasus

AckOnlyApplied(applied, isDup) == applied \/ isDup
RemovalExact(v, mark) == v = mark

\* Nothing of write w / read r is in flight any more: a timeout would fire.
WriteStalled(w) == wr[w].st = "pend" /\ ~\E m \in net : m.t \in {"WREQ", "WREP"} /\ m.w = w
ReadStalled(r)  == rd[r].st = "pend" /\ ~\E m \in net : m.t \in {"RREQ", "RREP"} /\ m.r = r

\* A packet of type t is handled.
Handle(t) ==
  \E m \in net : /\ m.t = t
                 /\ \/ ServerWrite(m) \/ ServerRead(m) \/ ServerVirtualWrite(m)
                    \/ SwitchWriteReply(m) \/ SwitchReadReply(m) \/ SwitchDropUnvouched(m)
                    \/ ServerRewrite(m) \/ SwitchRewriteReply(m)

Fairness ==
  /\ \A t \in {"WREQ", "RREQ", "VW", "WREP", "RREP", "RW", "RWREP"} : WF_vars(Handle(t))
  /\ \A w \in WIds : SF_vars(WriteStalled(w) /\ RetryWrite(w))
  /\ \A r \in RIds : SF_vars(ReadStalled(r) /\ RetryRead(r))
  \* The fix of issue 16 (MaxRewrite > 0): the controller ends a removal
  \* that has not ended (in the implementation, after two statistics
  \* periods).  With MaxRewrite = 0 it is never enabled.
  /\ \A k \in Keys : WF_vars(RemovalRewrite(k))

FairSpec == Spec /\ Fairness

-----------------------------------------------------------------------------
\* S6.2: every write a client issues completes.
WritesComplete == \A w \in WIds : wr[w].st = "pend" ~> wr[w].st = "done"

\* S6.3: once a key is marked for removal and a write to it stamped after
\* the mark is on its way home, the key leaves the directory (rkeys, and its
\* rset is emptied).
RemovalUnderway(k) ==
  /\ k \in rkeys /\ markVer[Hash(k)] # 0
  /\ \E m \in net : m.t = "WREQ" /\ m.key = k /\ m.w # 0 /\ m.ver >= markVer[Hash(k)]
RsetDrains == \A k \in Keys : RemovalUnderway(k) ~> (k \notin rkeys /\ rset[Hash(k)] = {})

\* Issue 16: with the controller's removal rewrite, every marked key leaves
\* the directory, whether or not a write of it comes after the mark (a key
\* marked for being cold may never be written again).  Without the rewrite
\* it does not hold (MaxRewrite = 0: a mark no write reaches is kept).
RemovalEnds == \A k \in Keys : (k \in rkeys /\ markVer[Hash(k)] # 0) ~> k \notin rkeys
=============================================================================
