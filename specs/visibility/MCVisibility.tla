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

\* States that differ only in the last action's name are the same protocol
\* state: `act` is for traces, not for the search.
MCView == <<net, dlog, tsGen, sw, maxTs, swUp, idx, deferred, pendClr,
            wr, rd, clock, faults, cleared>>
=============================================================================
