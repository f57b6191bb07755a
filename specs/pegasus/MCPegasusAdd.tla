------------------------ MODULE MCPegasusAdd ------------------------
(* Adding a replicated key (S6.3) while writes and a read are in flight. *)
(* Bounds and flags: MCPegasusAdd.cfg.  Shared definitions: MCPegasusBase. *)
EXTENDS MCPegasusBase
=============================================================================
