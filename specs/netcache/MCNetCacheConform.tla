---- MODULE MCNetCacheConform ----
(* Conformance-only model of NetCache (simulated by ./innet conform, not model-checked: not in       *)
(* MANIFEST): 2 keys, 1 cache slot, 2 clients, 3 writes and 3 reads, admissions and evictions, a loss, *)
(* a duplicate and a switch restart with counters seeded above every earlier number, all in one     *)
(* behaviour, so that replays meet them interleaved.                                                 *)
EXTENDS NetCache
CONSTANTS k1, k2, s1
OwnerMap == [k \in Key |-> s1]
====
