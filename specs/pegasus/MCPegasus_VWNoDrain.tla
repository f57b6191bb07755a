------------------------ MODULE MCPegasus_VWNoDrain ------------------------
(* BUGGY: virtual write while an older write to home is in flight. *)
(* Bounds and flags: MCPegasus_VWNoDrain.cfg.  Shared definitions: MCPegasusBase. *)
EXTENDS MCPegasusBase
=============================================================================
