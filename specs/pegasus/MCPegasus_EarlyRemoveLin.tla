------------------------ MODULE MCPegasus_EarlyRemoveLin ------------------------
(* BUGGY (client view): early removal from the directory. *)
(* Bounds and flags: MCPegasus_EarlyRemoveLin.cfg.  Shared definitions: MCPegasusBase. *)
EXTENDS MCPegasusBase
=============================================================================
