------------------------ MODULE MCPegasusChainRewrite ------------------------
(* Issue 16's fix, safety: the tail's removal rewrite under the pause.      *)
(* Bounds and flags: MCPegasusChainRewrite.cfg.  Shared definitions: MCPegasusChainBase. *)
EXTENDS MCPegasusChainBase
=============================================================================
