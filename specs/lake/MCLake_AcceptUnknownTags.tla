---- MODULE MCLake_AcceptUnknownTags ----
(* Model of LaKe: replies from before a reset are relayed *)
EXTENDS Lake
CONSTANTS k1
\* Every key shares the one first-layer slot; in the second layer each key has its own.
H1Map == [k \in Key |-> 0]
H2Map == [k \in Key |-> 0]
\* One memcached host holds every key.
OwnerMap == [k \in Key |-> 1]
\* Clients are interchangeable (write and read ids are global, not per client).
ClientSymmetry == Permutations(Client)
====
