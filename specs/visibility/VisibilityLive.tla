--------------------------- MODULE VisibilityLive ---------------------------
(***************************************************************************)
(* Liveness of the visibility layer under fairness (issue 13, item 5).     *)
(*                                                                         *)
(* Fairness: every step the system takes on its own is weakly fair --      *)
(* delivering a message of each type, the metadata node's batch, the       *)
(* timeouts (which, without SpuriousTimeouts, are enabled exactly when     *)
(* what they wait for is gone) and the switch's resynchronisation.  The    *)
(* one retry the protocol needs is strongly fair: a blocked second-phase   *)
(* reply (SwMetaReply is disabled while a non-clear entry has an older     *)
(* timestamp, and the paper re-sends it until the entry is cleared) may be *)
(* disabled again by a newer install, so only strong fairness makes it go  *)
(* through eventually.  Not fair: clients starting operations, losses,     *)
(* duplicates and crashes (faults, bounded by the .cfg).                   *)
(*                                                                         *)
(* Fairness is per message type, not per message: in these bounded         *)
(* workloads (one read) a message could only be starved by infinitely many *)
(* deliveries of its own type, which needs a retry loop of another        *)
(* operation of the same type.                                             *)
(*                                                                         *)
(* The timeout budget (MaxTimeouts) must cover the faults: each loss or    *)
(* crash needs one timeout to repair it.  A model with fewer timeouts than *)
(* that can leave a write stuck, which is the budget, not the protocol.   *)
(*                                                                         *)
(* One liveness bug, BatchClearsApplied below: the metadata node asks the  *)
(* switch to clear only the entries whose update it actually applied (an   *)
(* update superseded by a newer second phase is skipped, and so is its     *)
(* clear).  The superseded entry then stays for ever, and the newer        *)
(* write's reply stays blocked behind it.                                  *)
(***************************************************************************)
EXTENDS Visibility

\* The buggy batch: clears only the updates that changed the index.
BatchClearsApplied ==
    /\ deferred # {}
    /\ LET applied == {d \in deferred : d.ts > idx[d.key].ts}
       IN  /\ idx' = ApplyAll(idx, deferred)
           /\ deferred' = {}
           /\ pendClr' = pendClr \cup {[key |-> d.key, ts |-> d.ts] : d \in applied}
           /\ net' = net \cup {Msg("Clr", NoW, NoW, d.key, d.ts) : d \in applied}
    /\ act' = Act("MdnBatch", deferred, FALSE)
    /\ UNCHANGED <<cleared, dlog, tsGen, sw, maxTs, swUp, wr, rd, clock, faults, linVars>>

\* Next with the metadata node's batch replaced by the buggy one: MdnBatch is
\* the only action of Next that labels its step "MdnBatch".
NextClearsApplied == (Next /\ act'.name # "MdnBatch") \/ BatchClearsApplied

\* A message of type t is delivered (its handler, whichever it is).
DeliverType(t) == \E m \in net : m.type = t /\ Deliver(m)

\* (The batch's own fairness is stated in each spec below: TLC cannot take an
\* action as an argument of a temporal formula.)
Fairness ==
    /\ \A t \in MsgType \ {"MRep"} : WF_vars(DeliverType(t))
    /\ SF_vars(DeliverType("MRep"))     \* the blocked reply, re-sent until the entry clears
    /\ \A w \in Writes : WF_vars(ClientWriteTimeout(w))
    /\ \A r \in Reads : WF_vars(ClientReadTimeout(r))
    /\ WF_vars(\E c \in pendClr : MdnClearTimeout(c))
    /\ \A s \in Slots : WF_vars(SwStaleTimeout(s))
    /\ WF_vars(SwResync)

FairSpec == Spec /\ Fairness /\ WF_vars(MdnBatch)
FairSpecClearsApplied ==
    Init /\ [][NextClearsApplied]_vars /\ Fairness /\ WF_vars(BatchClearsApplied)

-----------------------------------------------------------------------------
(* Properties.                                                             *)

\* III-A 1 step 5, III-E 1: every switch entry is eventually cleared.
EntriesCleared == \A s \in Slots : sw[s].valid ~> ~sw[s].valid

\* III-B 1: a second-phase reply blocked behind an older, non-clear entry
\* is eventually released to its client (the write completes).
Blocked(w) ==
    \E m \in net : /\ m.type = "MRep" /\ m.w = w
                   /\ LET e == sw[SlotOf[m.key]] IN e.valid /\ m.ts > e.ts
BlockedReplyReleased == \A w \in Writes : Blocked(w) ~> wr[w].st = "done"

\* Every write and every read that started completes.
OpsComplete ==
    /\ \A w \in Writes : wr[w].st \in {"data", "meta"} ~> wr[w].st = "done"
    /\ \A r \in Reads : rd[r].st = "pending" ~> rd[r].st = "done"
=============================================================================
