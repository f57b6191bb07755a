---------------------------- MODULE MCVisibility ----------------------------
(* Model-file definitions shared by every MC*.cfg of this spec: the hash    *)
(* functions, the symmetry and the view.  Bounds and bug flags are in the   *)
(* .cfg files.                                                              *)
EXTENDS Visibility, TLC

\* Every key hashes to slot 1 with fingerprint 7: a full 48-bit collision,
\* so only the data node's key check tells the keys apart.
MCSlotOf == [k \in Keys |-> 1]
MCFpOf   == [k \in Keys |-> 7]

\* Writes, reads and (all keys being alike) keys are interchangeable.
MCSymmetry == Permutations(Writes) \cup Permutations(Reads) \cup Permutations(Keys)

\* A message is dead when delivering it can no longer change anything but
\* the network: an acknowledgement or fallback notice for a write already
\* past that point, a read answer for a finished read.  (Operations never
\* go back, so a dead message stays dead.)  Dead copies only add budget-
\* wasting behaviours (losing or duplicating them), so two states that
\* differ only in dead messages have the same protocol futures.
Dead(m) ==
    \/ m.type = "WAck" /\ wr[m.w].st = "done"
    \/ m.type = "WFb" /\ wr[m.w].st \in {"meta", "done"}
    \/ m.type \in {"RRep", "RNack"} /\ rd[m.r].st = "done"

\* The view TLC uses to tell states apart: every variable but `act` (the
\* last action's name is for traces, not for the search), and the network
\* without its dead messages.
MCView == <<{m \in net : ~Dead(m)}, dlog, tsGen, sw, maxTs, swUp, idx, deferred, pendClr,
            wr, rd, clock, faults, cleared, linVars>>
=============================================================================
