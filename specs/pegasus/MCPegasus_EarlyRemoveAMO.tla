---- MODULE MCPegasus_EarlyRemoveAMO ----
(* Bounds and flags: MCPegasus_EarlyRemoveAMO.cfg.  Shared definitions: MCPegasusBase. *)
EXTENDS MCPegasusBase
====
