------------------------ MODULE MCPegasusChainFail ------------------------
(* S7 with one rack crash and the service's reconfiguration. *)
(* Bounds and flags: MCPegasusChainFail.cfg.  Shared definitions: MCPegasusChainBase. *)
EXTENDS MCPegasusChainBase
=============================================================================
