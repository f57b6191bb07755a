------------------------ MODULE MCPegasusChain_NoBumpFailover ------------------------
(* BUGGY: downstream switches do not raise ver_next; the head rack then fails. *)
(* Bounds and flags: MCPegasusChain_NoBumpFailover.cfg.  Shared definitions: MCPegasusChainBase. *)
EXTENDS MCPegasusChainBase
=============================================================================
