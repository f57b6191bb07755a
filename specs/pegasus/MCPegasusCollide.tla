------------------------ MODULE MCPegasusCollide ------------------------
(* S6.6: two keys share a hash; one is replicated, requests for the other *)
(* are chained to its home.                                              *)
(* Bounds and flags: MCPegasusCollide.cfg.  Shared definitions: MCPegasusBase. *)
EXTENDS MCPegasusBase
=============================================================================
