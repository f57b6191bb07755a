------------------------ MODULE MCPegasus_ReplicateBoth ------------------------
(* BUGGY: two keys sharing a hash are both replicated. *)
(* Bounds and flags: MCPegasus_ReplicateBoth.cfg.  Shared definitions: MCPegasusBase. *)
EXTENDS MCPegasusBase
=============================================================================
