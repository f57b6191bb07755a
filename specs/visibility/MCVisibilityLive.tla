--------------------------- MODULE MCVisibilityLive ---------------------------
(* Liveness models (VisibilityLive).  No SYMMETRY: TLC's liveness checking   *)
(* is not sound under symmetry.  The VIEW leaves out only `act`, the last    *)
(* action's name: no action, fairness condition or property reads it, so     *)
(* states that differ only in it have the same futures and the same          *)
(* enabled actions, and merging them keeps the liveness check sound.         *)
(* (Unlike MCVisibility's view, dead messages stay in: they are deliverable, *)
(* so fairness sees them.)  Bounds are in the .cfg.                          *)
EXTENDS VisibilityLive, TLC

MCSlotOf == [k \in Keys |-> 1]
MCFpOf   == [k \in Keys |-> 7]

MCLiveView == <<net, dlog, tsGen, sw, maxTs, swUp, idx, deferred, pendClr,
                wr, rd, clock, faults, cleared, linVars>>
=============================================================================
