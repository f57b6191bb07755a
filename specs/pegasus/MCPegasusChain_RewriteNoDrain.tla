------------------------ MODULE MCPegasusChain_RewriteNoDrain ------------------------
(* BUGGY (issue 16): a removal rewrite without the pause and drain. *)
(* Bounds and flags: MCPegasusChain_RewriteNoDrain.cfg.  Shared definitions: MCPegasusChainBase. *)
EXTENDS MCPegasusChainBase
=============================================================================
