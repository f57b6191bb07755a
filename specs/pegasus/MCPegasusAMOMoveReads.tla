---- MODULE MCPegasusAMOMoveReads ----
(* Bounds and flags: MCPegasusAMOMoveReads.cfg.  Shared definitions: MCPegasusBase. *)
EXTENDS MCPegasusBase
====
