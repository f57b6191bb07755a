------------------------ MODULE MCPegasus_AddOnLowerLin ------------------------
(* BUGGY (client view): Alg. 2 adds on a lower version. *)
(* Bounds and flags: MCPegasus_AddOnLowerLin.cfg.  Shared definitions: MCPegasusBase. *)
EXTENDS MCPegasusBase
=============================================================================
