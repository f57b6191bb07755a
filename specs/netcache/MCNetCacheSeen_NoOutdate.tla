---- MODULE MCNetCacheSeen_NoOutdate ----
(* Model of NetCache: FillBySeen, a newer server reply leaves a valid record valid *)
EXTENDS NetCache
CONSTANTS k1, s1
\* Keys are partitioned over the servers round-robin.
OwnerMap == [k \in Key |-> s1]
\* Clients are interchangeable (write and read ids are global, not per client).
ClientSymmetry == Permutations(Client)
SeenOn == TRUE
====
