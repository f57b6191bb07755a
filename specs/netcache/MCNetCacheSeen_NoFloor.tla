---- MODULE MCNetCacheSeen_NoFloor ----
(* Model of NetCache: FillBySeen, admission sends no probe and leaves the fill floor as it was *)
EXTENDS NetCache
CONSTANTS k1, s1
\* Keys are partitioned over the servers round-robin.
OwnerMap == [k \in Key |-> s1]
\* Clients are interchangeable (write and read ids are global, not per client).
ClientSymmetry == Permutations(Client)
SeenOn == TRUE
====
