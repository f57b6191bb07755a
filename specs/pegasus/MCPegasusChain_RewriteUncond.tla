------------------------ MODULE MCPegasusChain_RewriteUncond ------------------------
(* BUGGY (issue 16): a removal rewrite without the pause and drain. *)
(* Bounds and flags: MCPegasusChain_RewriteUncond.cfg.  Shared definitions: MCPegasusChainBase. *)
EXTENDS MCPegasusChainBase
=============================================================================
