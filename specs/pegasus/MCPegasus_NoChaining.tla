------------------------ MODULE MCPegasus_NoChaining ------------------------
(* BUGGY: servers execute requests the switch misrouted by a shared hash. *)
(* Bounds and flags: MCPegasus_NoChaining.cfg.  Shared definitions: MCPegasusBase. *)
EXTENDS MCPegasusBase
=============================================================================
