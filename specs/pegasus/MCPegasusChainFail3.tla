------------------------ MODULE MCPegasusChainFail3 ------------------------
(* S7 with two rack crashes in a chain of three: head, middle or tail. *)
(* Bounds and flags: MCPegasusChainFail3.cfg.  Shared definitions: MCPegasusChainBase. *)
EXTENDS MCPegasusChainBase
=============================================================================
