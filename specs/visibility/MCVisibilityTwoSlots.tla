------------------------ MODULE MCVisibilityTwoSlots ------------------------
(* Two hash slots and distinct fingerprints: key a hashes to slot 1, key b  *)
(* to slot 2, and (in the three-key model) key c to slot 1 with a          *)
(* fingerprint of its own, so the switch itself tells a and c apart.  Each *)
(* slot has its own timestamp source and MaxTs register: writes of         *)
(* different slots are stamped independently.  Bounds are in the .cfg.    *)
EXTENDS MCVisibility

CONSTANTS a, b, c   \* the keys (model values), named so their hashes can differ

MC2SlotOf == [k \in Keys |-> IF k = b THEN 2 ELSE 1]
MC2FpOf   == [k \in Keys |-> IF k = a THEN 7 ELSE IF k = b THEN 8 ELSE 9]

\* Keys are not interchangeable here; writes and reads are.
MC2Symmetry == Permutations(Writes) \cup Permutations(Reads)
=============================================================================
