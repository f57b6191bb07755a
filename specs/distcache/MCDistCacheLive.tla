---- MODULE MCDistCacheLive ----
(* Liveness under fairness (DistCacheLive): 1 key, 1 client, 1 write, insertion into both layers, 1 loss; *)
(* the agent re-fills a copy that stays invalid.                                                          *)
EXTENDS DistCacheLive
CONSTANTS k1, n1, n2
PlaceMap == [l \in Layer |-> [k \in Key |-> IF l = "spine" THEN n1 ELSE n2]]
RefetchOn == TRUE
====
