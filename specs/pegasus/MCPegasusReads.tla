------------------------ MODULE MCPegasusReads ------------------------
(* Core protocol (S6.2) with two reads (read-after-read order). *)
(* Bounds and flags: MCPegasusReads.cfg.  Shared definitions: MCPegasusBase. *)
EXTENDS MCPegasusBase
=============================================================================
