---- MODULE MCLakeRestart ----
(* Model of LaKe: 2 keys on 2 memcached hosts sharing the first-layer slot, 2 clients, 2 SETs, 1 GET, 1 memcached restart *)
EXTENDS Lake
CONSTANTS k1, k2
\* Both keys share the one first-layer slot; in the second layer each key has its own.
H1Map == [k \in Key |-> 0]
H2Map == [k \in Key |-> IF k = k1 THEN 0 ELSE 1]
\* Two memcached hosts: k1 on host 1, k2 on host 2 (a restart of host 1 loses k1 only).
OwnerMap == [k \in Key |-> IF k = k1 THEN 1 ELSE 2]
\* Clients are interchangeable (write and read ids are global, not per client).
ClientSymmetry == Permutations(Client)
====
