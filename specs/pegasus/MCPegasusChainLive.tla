------------------------ MODULE MCPegasusChainLive ------------------------
(* Liveness models of the chain (PegasusChainLive).  The VIEW leaves out only *)
(* `act`, which no action, fairness condition or property reads, so the      *)
(* liveness check stays sound.  Bounds and replaced rules in each .cfg.      *)
EXTENDS PegasusChainLive
View == <<verNext, rset, verCompleted, store, net, used, wr, rd, hvOf, lastHv,
          inversions, execs, extVer, tailRepl, otherStamps, liveRacks, failedRacks,
          tailMark, ctab, detExecs>>
=============================================================================
