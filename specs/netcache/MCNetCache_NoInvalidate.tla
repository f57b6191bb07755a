---- MODULE MCNetCache_NoInvalidate ----
(* Model of NetCache: a write to a cached key does not invalidate it *)
EXTENDS NetCache
CONSTANTS k1, s1
\* Keys are partitioned over the servers round-robin.
OwnerMap == [k \in Key |-> s1]
\* Clients are interchangeable (write and read ids are global, not per client).
ClientSymmetry == Permutations(Client)
BugOn == TRUE
====
