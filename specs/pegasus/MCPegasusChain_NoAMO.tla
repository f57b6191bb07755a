------------------------ MODULE MCPegasusChain_NoAMO ------------------------
(* S7: client write retries without at-most-once. *)
(* Bounds and flags: MCPegasusChain_NoAMO.cfg.  Shared definitions: MCPegasusChainBase. *)
EXTENDS MCPegasusChainBase
=============================================================================
