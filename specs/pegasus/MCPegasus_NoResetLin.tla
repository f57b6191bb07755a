------------------------ MODULE MCPegasus_NoResetLin ------------------------
(* BUGGY (client view): Alg. 2 without reset. *)
(* Bounds and flags: MCPegasus_NoResetLin.cfg.  Shared definitions: MCPegasusBase. *)
EXTENDS MCPegasusBase
=============================================================================
