------------------------ MODULE MCPegasus_AcceptLower ------------------------
(* BUGGY: servers apply writes of any version. *)
(* Bounds and flags: MCPegasus_AcceptLower.cfg.  Shared definitions: MCPegasusBase. *)
EXTENDS MCPegasusBase
=============================================================================
