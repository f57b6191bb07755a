------------------------ MODULE MCPegasusChainFull ------------------------
(* Chain replication across racks (S7): head stamps, others keep the version. *)
(* Bounds and flags: MCPegasusChainFull.cfg.  Shared definitions: MCPegasusChainBase. *)
EXTENDS MCPegasusChainBase
=============================================================================
