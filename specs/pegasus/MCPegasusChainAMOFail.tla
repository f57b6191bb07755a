------------------------ MODULE MCPegasusChainAMOFail ------------------------
(* S7 + S6.4: client write retries and at-most-once across a rack failure. *)
(* Bounds and flags: MCPegasusChainAMOFail.cfg.  Shared definitions: MCPegasusChainBase. *)
EXTENDS MCPegasusChainBase
=============================================================================
