------------------------ MODULE MCPegasus_AcceptLowerLin ------------------------
(* BUGGY (client view): servers apply writes of any version. *)
(* Bounds and flags: MCPegasus_AcceptLowerLin.cfg.  Shared definitions: MCPegasusBase. *)
EXTENDS MCPegasusBase
=============================================================================
