---- MODULE MCNetCacheSeen_ProbeAnyAdmission ----
(* Model of NetCache: FillBySeen, the controller takes an earlier admission probe reply as the fill floor (1 duplicate) *)
EXTENDS NetCache
CONSTANTS k1, s1
\* Keys are partitioned over the servers round-robin.
OwnerMap == [k \in Key |-> s1]
\* Clients are interchangeable (write and read ids are global, not per client).
ClientSymmetry == Permutations(Client)
SeenOn == TRUE
====
