------------------------ MODULE MCPegasusChainFailVW ------------------------
(* S7 + S6.3: the tail's virtual write and a rack failure, interleaved. *)
(* Bounds and flags: MCPegasusChainFailVW.cfg.  Shared definitions: MCPegasusChainBase. *)
EXTENDS MCPegasusChainBase
=============================================================================
