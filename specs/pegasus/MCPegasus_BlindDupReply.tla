------------------------ MODULE MCPegasus_BlindDupReply ------------------------
(* BUGGY: a duplicate's cached reply is trusted as a replica claim. *)
(* Bounds and flags: MCPegasus_BlindDupReply.cfg.  Shared definitions: MCPegasusBase. *)
EXTENDS MCPegasusBase
=============================================================================
