---- MODULE MCFarReachPathCover ----
(* Model of FarReach for the PATH COVER of conformance trace generation (docs/conformance.md): 1 key, *)
(* 1 client, 1 cache slot, 1 loss, 1 duplicate, admission, eviction, snapshot, switch crash and      *)
(* recovery.  tracegen dumps its whole state graph WITHOUT the VIEW (so every node carries its own   *)
(* action label `act` and every path is a real behaviour), which multiplies the states; the bounds   *)
(* are as small as still lets every action but two be taken: ClientCrash (MaxClientCrash = 0: with   *)
(* a switch crash in the same run it loses writes by design, MANIFEST's LIMITATION row) and          *)
(* EvictFinishNoAck (only the BugEvictBeforeAck variant has it).  Not in MANIFEST: the exhaustive    *)
(* small models already cover these behaviours with two clients.                                     *)
EXTENDS FarReach
CONSTANTS k1, s1
OwnerMap == [k \in Key |-> s1]
====
