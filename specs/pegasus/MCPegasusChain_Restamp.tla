------------------------ MODULE MCPegasusChain_Restamp ------------------------
(* BUGGY: every rack's switch stamps its own version. *)
(* Bounds and flags: MCPegasusChain_Restamp.cfg.  Shared definitions: MCPegasusChainBase. *)
EXTENDS MCPegasusChainBase
=============================================================================
