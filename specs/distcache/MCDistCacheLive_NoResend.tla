---- MODULE MCDistCacheLive_NoResend ----
(* Buggy liveness variant: the server never resends a lost invalidation (no phase-1 timeout): the write *)
(* stays in phase 1 forever.                                                                           *)
EXTENDS DistCacheLive
CONSTANTS k1, n1, n2
PlaceMap == [l \in Layer |-> [k \in Key |-> IF l = "spine" THEN n1 ELSE n2]]
RefetchOn == TRUE
NoResend == FALSE
====
