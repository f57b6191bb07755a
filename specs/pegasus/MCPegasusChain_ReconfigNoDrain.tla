------------------------ MODULE MCPegasusChain_ReconfigNoDrain ------------------------
(* BUGGY: a failed rack is removed before the writes it passed down arrive. *)
(* Bounds and flags: MCPegasusChain_ReconfigNoDrain.cfg.  Shared definitions: MCPegasusChainBase. *)
EXTENDS MCPegasusChainBase
=============================================================================
