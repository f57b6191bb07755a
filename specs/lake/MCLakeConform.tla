---- MODULE MCLakeConform ----
(* Conformance model of LaKe (simulated by ./innet conform and ./innet verify --simulate, too big   *)
(* to search breadth-first): 2 keys sharing the first-layer slot and apart in the second, 2 clients, *)
(* 3 SETs, 3 GETs, 1 loss, 1 eviction and 1 device reset, so that replays meet them interleaved.     *)
(* Slots follow the convention the replay relies on (LakeReplay): a key's slot in a layer is its     *)
(* index among the keys in name order, modulo the layer's size.                                       *)
EXTENDS Lake
CONSTANTS k1, k2
H1Map == [k \in Key |-> 0]
H2Map == [k \in Key |-> IF k = k1 THEN 0 ELSE 1]
\* One memcached host holds every key.
OwnerMap == [k \in Key |-> 1]
ClientSymmetry == Permutations(Client)
====
