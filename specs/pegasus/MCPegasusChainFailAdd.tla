------------------------ MODULE MCPegasusChainFailAdd ------------------------
(* S7: a rack fails while the tail adds the key to its directory. *)
(* Bounds and flags: MCPegasusChainFailAdd.cfg.  Shared definitions: MCPegasusChainBase. *)
EXTENDS MCPegasusChainBase
=============================================================================
