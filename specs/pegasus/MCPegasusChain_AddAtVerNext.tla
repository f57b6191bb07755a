--------------------- MODULE MCPegasusChain_AddAtVerNext ---------------------
(* BUGGY: the tail's AddKey sets ver_completed = ver_next - 1.            *)
(* Bounds and flags: MCPegasusChain_AddAtVerNext.cfg.  Shared definitions: MCPegasusChainBase. *)
EXTENDS MCPegasusChainBase
=============================================================================
