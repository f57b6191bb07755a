------------------------ MODULE MCPegasusChainVW ------------------------
(* S7 + S6.3: the tail adds the key and its controller issues a virtual write. *)
(* Bounds and flags: MCPegasusChainVW.cfg.  Shared definitions: MCPegasusChainBase. *)
EXTENDS MCPegasusChainBase
=============================================================================
