---------------------------- MODULE MCPegasusLive ----------------------------
(* Liveness models of Pegasus (PegasusLive).  The VIEW leaves out only `act`, *)
(* which no action, fairness condition or property reads, so the liveness    *)
(* check stays sound.  Bounds in the .cfg.                                   *)
EXTENDS PegasusLive
MCHome == [k \in Keys |-> (k % NServers) + 1]
View == <<verNext, rkeys, rset, verCompleted, markVer, store, ctab, net, used,
          wr, rd, execs, extVer, swDown, lostKeys>>
=============================================================================
