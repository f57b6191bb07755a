------------------------ MODULE MCPegasusChain_ReplicateOffTail ------------------------
(* BUGGY: every rack keeps a directory; the tail fails. *)
(* Bounds and flags: MCPegasusChain_ReplicateOffTail.cfg.  Shared definitions: MCPegasusChainBase. *)
EXTENDS MCPegasusChainBase
=============================================================================
