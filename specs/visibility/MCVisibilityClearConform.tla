------------------------ MODULE MCVisibilityClearConform ------------------------
(* Conformance model (./innet conform --protocol visibility simulates it): one *)
(* key, 2 writes, 1 read, 1 loss, clear re-sends the only timeout, and the     *)
(* loss restricted to a clear or its acknowledgement, so that simulated        *)
(* behaviours often re-send a clear (MdnClearTimeout), which the other models  *)
(* rarely do at random (their one loss mostly hits an earlier message).        *)
(* Every behaviour of ConformSpec is one of Spec.  Shared definitions are in   *)
(* MCVisibility; bounds are in the .cfg.                                       *)
EXTENDS MCVisibility

ConformNext ==
    /\ Next
    /\ act'.name = "Lose" => act'.args[1].type \in {"Clr", "ClrAck"}

ConformSpec == Init /\ [][ConformNext]_vars
=============================================================================
