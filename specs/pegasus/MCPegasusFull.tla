------------------------ MODULE MCPegasusFull ------------------------
(* Core protocol (S6.2), larger: 3 servers, 2 writes, 2 reads. *)
(* Bounds and flags: MCPegasusFull.cfg.  Shared definitions: MCPegasusBase. *)
EXTENDS MCPegasusBase
=============================================================================
