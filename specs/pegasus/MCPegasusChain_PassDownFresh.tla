------------------------ MODULE MCPegasusChain_PassDownFresh ------------------------
(* S7 + S6.4 bug: a non-tail detector passes a retry down under its fresh stamp. *)
(* Bounds and flags: MCPegasusChain_PassDownFresh.cfg.  Shared definitions: MCPegasusChainBase. *)
EXTENDS MCPegasusChainBase
=============================================================================
