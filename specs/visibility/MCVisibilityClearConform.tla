------------------------ MODULE MCVisibilityClearConform ------------------------
(* Conformance model (./innet conform --protocol visibility simulates it): one *)
(* key, 2 writes, 1 read, 1 loss and clear re-sends as the only timeout, so    *)
(* that simulated behaviours often lose a clear or its acknowledgement and     *)
(* re-send it (MdnClearTimeout), which the larger models rarely do at random.  *)
(* Shared definitions are in MCVisibility; bounds are in the .cfg.             *)
EXTENDS MCVisibility
=============================================================================
