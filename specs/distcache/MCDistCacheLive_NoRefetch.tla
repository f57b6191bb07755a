---- MODULE MCDistCacheLive_NoRefetch ----
(* Buggy liveness variant: no re-fill of a copy that stays invalid (innet's DistCache agent before CacheRefetch): *)
(* a fill refused by the version guard, or a lost phase-2 update, leaves the copy invalid and cached.    *)
EXTENDS DistCacheLive
CONSTANTS k1, n1, n2
PlaceMap == [l \in Layer |-> [k \in Key |-> IF l = "spine" THEN n1 ELSE n2]]
RefetchOn == TRUE
====
