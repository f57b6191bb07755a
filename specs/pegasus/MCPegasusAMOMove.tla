------------------------ MODULE MCPegasusAMOMove ------------------------
(* At-most-once across key transitions (S6.4 table migration). *)
(* Bounds and flags: MCPegasusAMOMove.cfg.  Shared definitions: MCPegasusBase. *)
EXTENDS MCPegasusBase
=============================================================================
