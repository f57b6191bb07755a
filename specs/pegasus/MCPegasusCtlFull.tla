------------------------ MODULE MCPegasusCtlFull ------------------------
(* All controller actions (S6.3) together: add, remove, virtual write. *)
(* Bounds and flags: MCPegasusCtlFull.cfg.  Shared definitions: MCPegasusBase. *)
EXTENDS MCPegasusBase
=============================================================================
