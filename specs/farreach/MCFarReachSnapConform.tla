---- MODULE MCFarReachSnapConform ----
(* CONFORMANCE ONLY (not in MANIFEST): 1 key, 2 clients, snapshots with write hits, admission, eviction; no crash *)
EXTENDS FarReach
CONSTANTS k1, s1
\* Keys are partitioned over the servers round-robin.
OwnerMap == [k \in Key |-> s1]
\* Clients are interchangeable (write and read ids are global, not per client).
ClientSymmetry == Permutations(Client)
\* The implementation's controller runs one procedure at a time, so no snapshot
\* starts while an admission (install, probe, floor, validation) is in progress;
\* the replay refuses such interleavings, which since the admission probe made
\* admissions longer crowded out the snapshots with write hits this model is for.
SnapBetweenAdmissions == \A k \in Key : ~admitting[k]
====
