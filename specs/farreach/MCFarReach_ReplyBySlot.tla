---- MODULE MCFarReach_ReplyBySlot ----
(* Buggy variant: a GET_FOR_CACHE reply for a key no longer cached fills the record now in its   *)
(* slot.  2 keys, 1 slot, 1 write: reads of k2 return k1's value.  ReadsNotStale cannot see it   *)
(* (it compares numbers, and no write to k2 exists); Linearizable checks where a value came from. *)
EXTENDS FarReach
CONSTANTS k1, k2, s1
OwnerMap == [k \in Key |-> s1]
ClientSymmetry == Permutations(Client)
BugOn == TRUE
====
