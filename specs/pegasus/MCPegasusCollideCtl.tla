------------------------ MODULE MCPegasusCollideCtl ------------------------
(* S6.6 with the controller: either of two keys sharing a hash may be added. *)
(* Bounds and flags: MCPegasusCollideCtl.cfg.  Shared definitions: MCPegasusBase. *)
EXTENDS MCPegasusBase
=============================================================================
