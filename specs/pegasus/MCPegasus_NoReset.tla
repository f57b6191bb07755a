------------------------ MODULE MCPegasus_NoReset ------------------------
(* BUGGY: Alg. 2 keeps stale replicas on a higher version. *)
(* Bounds and flags: MCPegasus_NoReset.cfg.  Shared definitions: MCPegasusBase. *)
EXTENDS MCPegasusBase
=============================================================================
