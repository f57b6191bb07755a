------------------------ MODULE MCPegasusRemove ------------------------
(* Removing a replicated key (S6.3): mark, next write home, drop on its reply. *)
(* Bounds and flags: MCPegasusRemove.cfg.  Shared definitions: MCPegasusBase. *)
EXTENDS MCPegasusBase
=============================================================================
