---- MODULE MCNetCache_NoInvalidateReads ----
(* Model of NetCache: the same, checked only by the read history *)
EXTENDS NetCache
CONSTANTS k1, s1
\* Keys are partitioned over the servers round-robin.
OwnerMap == [k \in Key |-> s1]
\* Clients are interchangeable (write and read ids are global, not per client).
ClientSymmetry == Permutations(Client)
BugOn == TRUE
====
