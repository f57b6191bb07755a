------------------------ MODULE MCPegasus ------------------------
(* Core protocol (S6.2) on a lossy, duplicating, reordering network. *)
(* Bounds and flags: MCPegasus.cfg.  Shared definitions: MCPegasusBase. *)
EXTENDS MCPegasusBase
=============================================================================
