------------------------ MODULE MCPegasus_NoTableCopy ------------------------
(* BUGGY: key transitions without client-table migration. *)
(* Bounds and flags: MCPegasus_NoTableCopy.cfg.  Shared definitions: MCPegasusBase. *)
EXTENDS MCPegasusBase
=============================================================================
