------------------------ MODULE MCPegasusChain_RewriteHomeCopy ------------------------
(* BUGGY (issue 16): the removal rewrite under the pause carries home's copy. *)
(* Bounds and flags: MCPegasusChain_RewriteHomeCopy.cfg.  Shared definitions: MCPegasusChainBase. *)
EXTENDS MCPegasusChainBase
=============================================================================
