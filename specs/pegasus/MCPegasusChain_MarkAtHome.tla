------------------------ MODULE MCPegasusChain_MarkAtHome ------------------------
(* BUGGY: the tail marks the key at home's version + 1, not its ver_next. *)
(* Bounds and flags: MCPegasusChain_MarkAtHome.cfg.  Shared definitions: MCPegasusChainBase. *)
EXTENDS MCPegasusChainBase
=============================================================================
