---- MODULE MCLake_L2AtL1Index ----
(* Model of LaKe: second-layer fills at the first-layer index *)
EXTENDS Lake
CONSTANTS k1, k2
\* Every key shares the one first-layer slot; in the second layer each key has its own.
H1Map == [k \in Key |-> 0]
H2Map == [k \in Key |-> IF k = k1 THEN 0 ELSE 1]
\* One memcached host holds every key.
OwnerMap == [k \in Key |-> 1]
\* Clients are interchangeable (write and read ids are global, not per client).
ClientSymmetry == Permutations(Client)
====
