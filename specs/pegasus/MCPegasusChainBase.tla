-------------------------- MODULE MCPegasusChainBase --------------------------
(* Shared definitions for the PegasusChain models: the VIEW leaves out the *)
(* trace-only variable `act`.  Bounds and flags live in each model's .cfg.  *)
EXTENDS PegasusChain

View == <<verNext, rset, verCompleted, store, net, used, wr, rd, hvOf, lastHv,
          inversions, execs, extVer, tailRepl, otherStamps, liveRacks, failedRacks,
          tailMark, ctab, detExecs>>
=============================================================================
