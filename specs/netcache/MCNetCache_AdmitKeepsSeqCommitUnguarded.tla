---- MODULE MCNetCache_AdmitKeepsSeqCommitUnguarded ----
(* Model of NetCache: admission keeps record_seq and NC-7 drops seq >= seq_bound: a stale staged write is committed *)
EXTENDS NetCache
CONSTANTS k1, s1
\* Keys are partitioned over the servers round-robin.
OwnerMap == [k \in Key |-> s1]
\* Clients are interchangeable (write and read ids are global, not per client).
ClientSymmetry == Permutations(Client)
====
