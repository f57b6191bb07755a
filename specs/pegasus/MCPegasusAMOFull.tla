------------------------ MODULE MCPegasusAMOFull ------------------------
(* At-most-once (S6.4) with reads and retries. *)
(* Bounds and flags: MCPegasusAMOFull.cfg.  Shared definitions: MCPegasusBase. *)
EXTENDS MCPegasusBase
=============================================================================
