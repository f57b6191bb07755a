------------------------ MODULE MCPegasus_EarlyRemove ------------------------
(* BUGGY: a key leaves the directory before its write reply. *)
(* Bounds and flags: MCPegasus_EarlyRemove.cfg.  Shared definitions: MCPegasusBase. *)
EXTENDS MCPegasusBase
=============================================================================
