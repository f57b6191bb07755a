---- MODULE MCLakeConformSharedL2 ----
(* Conformance model of LaKe (simulated, like MCLakeConform): 2 keys with a first-layer slot each     *)
(* sharing the one second-layer slot, 2 clients, 3 SETs, 3 GETs, 1 loss, 1 eviction, 1 device reset: *)
(* the second layer's displacement and fenced replies meeting the other key there. Slots follow the   *)
(* replay's convention (index in name order modulo the layer's size).                                  *)
EXTENDS Lake
CONSTANTS k1, k2
H1Map == [k \in Key |-> IF k = k1 THEN 0 ELSE 1]
H2Map == [k \in Key |-> 0]
\* One memcached host holds every key.
OwnerMap == [k \in Key |-> 1]
====
