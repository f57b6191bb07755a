------------------------ MODULE MCPegasusFull ------------------------
(* Core protocol (S6.2), larger: 3 servers. *)
(* Bounds and flags: MCPegasusFull.cfg.  Shared definitions: MCPegasusBase. *)
EXTENDS MCPegasusBase
=============================================================================
