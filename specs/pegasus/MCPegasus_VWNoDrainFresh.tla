------------------------ MODULE MCPegasus_VWNoDrainFresh ------------------------
(* BUGGY (client view): virtual write without drain gives a stale read. *)
(* Bounds and flags: MCPegasus_VWNoDrainFresh.cfg.  Shared definitions: MCPegasusBase. *)
EXTENDS MCPegasusBase
=============================================================================
