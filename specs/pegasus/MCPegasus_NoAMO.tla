------------------------ MODULE MCPegasus_NoAMO ------------------------
(* LIMITATION: without S6.4 a retried write runs again. *)
(* Bounds and flags: MCPegasus_NoAMO.cfg.  Shared definitions: MCPegasusBase. *)
EXTENDS MCPegasusBase
=============================================================================
