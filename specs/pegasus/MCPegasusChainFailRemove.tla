---------------------- MODULE MCPegasusChainFailRemove ----------------------
(* S7 + S6.3: the tail's MarkRemove and removal, with a rack failure and the *)
(* service's reconfiguration.  Bounds and flags: MCPegasusChainFailRemove.cfg. *)
EXTENDS MCPegasusChainBase
=============================================================================
