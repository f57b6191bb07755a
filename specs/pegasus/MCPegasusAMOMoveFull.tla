------------------------ MODULE MCPegasusAMOMoveFull ------------------------
(* At-most-once across key transitions (S6.4), with duplication. *)
(* Bounds and flags: MCPegasusAMOMoveFull.cfg.  Shared definitions: MCPegasusBase. *)
EXTENDS MCPegasusBase
=============================================================================
