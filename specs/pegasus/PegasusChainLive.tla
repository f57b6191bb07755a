-------------------------- MODULE PegasusChainLive --------------------------
(***************************************************************************)
(* Liveness of chain replication across racks (PegasusChain.tla, S7 of the *)
(* Pegasus paper) under fairness, in the style of PegasusLive.tla.         *)
(*                                                                         *)
(* Weakly fair: every step of a switch or a server on a packet in flight   *)
(* (per packet type), the configuration service's removal of a crashed     *)
(* rack (Reconfigure), a client's retry of a write that has timed out,    *)
(* and the tail controller's removal rewrite (issue 16's fix; enabled only *)
(* with MaxRewrite > 0, PegasusChain.tla).                                 *)
(* Not fair: clients issuing operations, the tail controller's add, mark   *)
(* and virtual-write policy, the tail's stamps of other keys, losses,      *)
(* duplicates and rack crashes; the .cfg bounds each.                      *)
(*                                                                         *)
(* The client: a liveness model replaces RetryDue by TimedOut, so a client *)
(* resends a write only when nothing of it is in flight any more.  A       *)
(* packet waiting at a crashed rack still in the view is in flight (the    *)
(* service removes it with the rack), so the client's timeout outlasts the *)
(* failure detection and the reconfiguration; a retry sent into a crashed  *)
(* head before the view changes would be wasted on the bounded budget.     *)
(* A client gives up when its write has timed out and no retry is left     *)
(* (MaxRetry is shared by the clients, as in PegasusChain.tla).            *)
(*                                                                         *)
(* Buggy rules, swapped in by a .cfg (Hook <- Bug):                        *)
(*   StaticSuccessor   - a server passes writes to the rack after it in    *)
(*                       the first chain, replying only at the first       *)
(*                       tail: once the tail is removed, its predecessor   *)
(*                       never takes over as tail.                         *)
(*   WaitsForFailed    - the service also waits for the crashed rack to    *)
(*                       handle what was sent to it, which it never does.  *)
(*   DropRecorded      - a non-tail detector drops a request its client   *)
(*                       table records instead of passing it down again.  *)
(*   RemovalExact      - the tail's removal ends only on a home reply of   *)
(*                       exactly the marked version.                       *)
(***************************************************************************)
EXTENDS PegasusChain

\* Nothing of write w is in flight: its client's timeout fires.
TimedOut(w) ==
  /\ wr[w].st = "pend"
  /\ ~\E m \in net : m.t \in {"CWREQ", "WREQ", "WREP"} /\ m.w = w

\* The client has given up on write w: it timed out and no retry is left.
GaveUp(w) == TimedOut(w) /\ used.retry >= MaxRetry

StaticSuccessor(r) == IF r = NRacks THEN 0 ELSE r + 1
WaitsForFailed(f) ==
  /\ IF f = Tail THEN TRUE
     ELSE ~\E m \in net : m.t = "CWREQ" /\ m.rack = NextRack(f) /\ m.ver # 0
  /\ ~\E m \in net : BoundFor(m, f)
DropRecorded(r) == FALSE
RemovalExact(v, mark) == v = mark

\* A packet of type t is handled by a switch or a server.
Handle(t) ==
  \E m \in net : /\ m.t = t
                 /\ \/ SwitchWrite(m) \/ ServerWrite(m) \/ ServerRead(m)
                    \/ SwitchReply(m) \/ ServerVirtualWrite(m) \/ ServerRewrite(m)

Fairness ==
  /\ \A t \in {"CWREQ", "WREQ", "RREQ", "WREP", "RREP", "VW", "VWCOPY", "RW", "RWREP"} :
       WF_vars(Handle(t))
  /\ \A f \in Racks : WF_vars(Reconfigure(f))
  \* With RetryDue <- TimedOut a timed-out write's retry stays enabled until
  \* it is taken or another write spends the last retry: weak fairness is
  \* enough (PegasusLive.tla needs strong fairness for its lost replies).
  /\ \A w \in WIds : WF_vars(RetryWrite(w))
  \* The fix of issue 16 (MaxRewrite > 0): the tail's controller ends a
  \* removal that has not ended (in the implementation, after a timeout).
  /\ WF_vars(RemovalRewriteAtTail)

FairSpec == Spec /\ Fairness

-----------------------------------------------------------------------------
\* S7: every write a client issues completes (the tail acknowledges it), also
\* when a rack crashes on its way and the survivors take over as head or tail.
\* Holds in models whose retry budget covers the writes their faults can lose.
WritesComplete == \A w \in WIds : wr[w].st = "pend" ~> wr[w].st = "done"

\* Every write completes or its client gives up (timed out, no retry left):
\* no write is left waiting forever on something in flight.
WritesEnd == \A w \in WIds : wr[w].st = "pend" ~> (wr[w].st = "done" \/ GaveUp(w))

\* S7 "Reconfiguring the Chains": every crashed rack leaves the view.
ViewConverges == \A f \in Racks : f \in failedRacks ~> f \notin liveRacks

\* S6.3 at the tail: once the key is marked and a write stamped at or above
\* the mark is on its way to the tail's home, the key leaves the tail's
\* directory (a new tail starts without it, PegasusChain's Reconfigure).
RemovalUnderway ==
  /\ tailRepl /\ tailMark # 0
  /\ \E m \in net : /\ m.t = "WREQ" /\ m.rack = Tail /\ m.dst = Home
                    /\ m.w # 0 /\ m.ver >= tailMark
RemovalDrains == RemovalUnderway ~> (~tailRepl /\ rset[Tail] = {})
=============================================================================
