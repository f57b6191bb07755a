-------------------- MODULE MCVisibility_BlindInvalidate --------------------
(* Buggy variant: the stale-entry repair invalidates the entry instead of   *)
(* re-sending its metadata (VisibilityRepair).  Shared definitions as in    *)
(* MCVisibility.                                                            *)
EXTENDS VisibilityRepair, TLC

MCSlotOf == [k \in Keys |-> 1]
MCFpOf   == [k \in Keys |-> 7]
MCSymmetry == Permutations(Writes) \cup Permutations(Reads) \cup Permutations(Keys)
=============================================================================
