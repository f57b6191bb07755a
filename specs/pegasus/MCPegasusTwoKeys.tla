------------------------ MODULE MCPegasusTwoKeys ------------------------
(* Two keys sharing the global ver_next; add and virtual write. *)
(* Bounds and flags: MCPegasusTwoKeys.cfg.  Shared definitions: MCPegasusBase. *)
EXTENDS MCPegasusBase
=============================================================================
