------------------------ MODULE MCPegasusVW ------------------------
(* Adding a key and moving it with a virtual write (S6.3). *)
(* Bounds and flags: MCPegasusVW.cfg.  Shared definitions: MCPegasusBase. *)
EXTENDS MCPegasusBase
=============================================================================
