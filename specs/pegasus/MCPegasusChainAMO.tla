------------------------ MODULE MCPegasusChainAMO ------------------------
(* S7 + S6.4: client write retries and at-most-once at each rack's detector. *)
(* Bounds and flags: MCPegasusChainAMO.cfg.  Shared definitions: MCPegasusChainBase. *)
EXTENDS MCPegasusChainBase
=============================================================================
