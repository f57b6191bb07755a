------------------------ MODULE MCPegasusChain_IgnoreTable ------------------------
(* S7 + S6.4 bug: detectors ignore their client tables. *)
(* Bounds and flags: MCPegasusChain_IgnoreTable.cfg.  Shared definitions: MCPegasusChainBase. *)
EXTENDS MCPegasusChainBase
=============================================================================
