------------------------- MODULE MCVisibility3Keys -------------------------
(* Full model with three keys in one hash slot: a and b collide completely  *)
(* (same index and fingerprint), c shares the index but not the fingerprint,*)
(* so the switch itself sends c's reads past an entry holding a or b.       *)
EXTENDS MCVisibility

CONSTANT c   \* the third key (a model value), named so its fingerprint can differ

MC3SlotOf == [k \in Keys |-> 1]
MC3FpOf   == [k \in Keys |-> IF k = c THEN 9 ELSE 7]

\* Only the fully colliding keys are interchangeable.
MC3Symmetry == Permutations(Writes) \cup Permutations(Reads) \cup Permutations(Keys \ {c})
=============================================================================
