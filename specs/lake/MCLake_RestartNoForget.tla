---- MODULE MCLake_RestartNoForget ----
(* Model of LaKe: memcached restarts without the switch's forget (the seeded bug stale-restart) *)
EXTENDS Lake
CONSTANTS k1
H1Map == [k \in Key |-> 0]
H2Map == [k \in Key |-> 0]
\* One memcached host holds the key.
OwnerMap == [k \in Key |-> 1]
\* Clients are interchangeable (write and read ids are global, not per client).
ClientSymmetry == Permutations(Client)
====
