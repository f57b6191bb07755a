------------------------ MODULE MCPegasusChainRep ------------------------
(* Chain replication (S7) with in-rack replication, no packet faults. *)
(* Bounds and flags: MCPegasusChainRep.cfg.  Shared definitions: MCPegasusChainBase. *)
EXTENDS MCPegasusChainBase
=============================================================================
