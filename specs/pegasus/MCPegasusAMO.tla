------------------------ MODULE MCPegasusAMO ------------------------
(* At-most-once (S6.4): detector nodes and client tables under retries. *)
(* Bounds and flags: MCPegasusAMO.cfg.  Shared definitions: MCPegasusBase. *)
EXTENDS MCPegasusBase
=============================================================================
