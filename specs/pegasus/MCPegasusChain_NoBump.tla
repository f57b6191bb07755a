------------------------ MODULE MCPegasusChain_NoBump ------------------------
(* BUGGY: downstream switches do not raise ver_next. *)
(* Bounds and flags: MCPegasusChain_NoBump.cfg.  Shared definitions: MCPegasusChainBase. *)
EXTENDS MCPegasusChainBase
=============================================================================
