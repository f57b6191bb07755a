------------------------ MODULE MCPegasus_AddOnLower ------------------------
(* BUGGY: Alg. 2 adds a server replying with a lower version. *)
(* Bounds and flags: MCPegasus_AddOnLower.cfg.  Shared definitions: MCPegasusBase. *)
EXTENDS MCPegasusBase
=============================================================================
