---- MODULE MCFarReachSim ----
(* Model of FarReach for TLC SIMULATION ONLY (conformance trace generation, docs/conformance.md):  *)
(* 3 keys on 2 servers, 3 clients, 2 cache slots, message loss and duplication (the network is a   *)
(* set, so reordering is inherent), snapshots and a switch crash with recovery possible in one run, *)
(* all bug flags FALSE.  Its bounds are far too large for exhaustive checking: it is deliberately   *)
(* NOT in MANIFEST, so ./innet verify never model-checks it.  Client crashes stay at 0: with a      *)
(* switch crash in the same run they lose writes by design (the LIMITATION row of MANIFEST), and    *)
(* TLC checks the invariants on every simulated state.                                              *)
EXTENDS FarReach
CONSTANTS k1, k2, k3, s1, s2
\* Keys are partitioned over the servers round-robin.
OwnerMap == [k \in Key |-> IF k = k2 THEN s2 ELSE s1]
\* Write retransmissions (ClientRetry; MaxRetry is a definition in FarReach.tla, 0 unless overridden).
RetryBudget == 3
====
