---- MODULE MCPegasusAMOReads ----
(* Bounds and flags: MCPegasusAMOReads.cfg.  Shared definitions: MCPegasusBase. *)
EXTENDS MCPegasusBase
====
