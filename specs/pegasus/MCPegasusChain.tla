------------------------ MODULE MCPegasusChain ------------------------
(* Chain replication across racks (S7), small: one server per rack. *)
(* Bounds and flags: MCPegasusChain.cfg.  Shared definitions: MCPegasusChainBase. *)
EXTENDS MCPegasusChainBase
=============================================================================
