------------------------ MODULE MCPegasusChainVWNoDrain ------------------------
(* The tail's virtual write without the drain: safe in a chain (TailRsetCurrent). *)
(* Bounds and flags: MCPegasusChainVWNoDrain.cfg.  Shared definitions: MCPegasusChainBase. *)
EXTENDS MCPegasusChainBase
=============================================================================
