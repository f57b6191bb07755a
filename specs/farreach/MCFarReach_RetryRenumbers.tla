---- MODULE MCFarReach_RetryRenumbers ----
(* Buggy variant: the switch gives a retried write a new seq instead of its first copy's.  A retry *)
(* of a write whose first copy was overtaken by another client's write is then stored over that   *)
(* newer write (the bug tracecheck's trace validation seeds into the switch).                     *)
EXTENDS FarReach
CONSTANTS k1, s1
OwnerMap == [k \in Key |-> s1]
ClientSymmetry == Permutations(Client)
RetryBudget == 1
BugOn == TRUE
====
