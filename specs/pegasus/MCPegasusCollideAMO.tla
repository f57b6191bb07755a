------------------------ MODULE MCPegasusCollideAMO ------------------------
(* S6.6 with at-most-once: chained writes meet their home as detector. *)
(* Bounds and flags: MCPegasusCollideAMO.cfg.  Shared definitions: MCPegasusBase. *)
EXTENDS MCPegasusBase
=============================================================================
