------------------------ MODULE MCVisibilityFaults ------------------------
(* Full model: the small model's workload under every network fault at once *)
(* (loss, duplication, timeouts that may fire while the awaited message is  *)
(* still in flight).  Shared definitions are in MCVisibility.               *)
EXTENDS MCVisibility
=============================================================================
