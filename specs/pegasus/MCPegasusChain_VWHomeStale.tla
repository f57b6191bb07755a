------------------------ MODULE MCPegasusChain_VWHomeStale ------------------------
(* BUGGY: the tail's virtual write while home is not in rset. *)
(* Bounds and flags: MCPegasusChain_VWHomeStale.cfg.  Shared definitions: MCPegasusChainBase. *)
EXTENDS MCPegasusChainBase
=============================================================================
