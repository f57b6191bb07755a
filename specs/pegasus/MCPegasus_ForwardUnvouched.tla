------------------------ MODULE MCPegasus_ForwardUnvouched ------------------------
(* BUGGY: the switch forwards duplicate replies nobody vouches for. *)
(* Bounds and flags: MCPegasus_ForwardUnvouched.cfg.  Shared definitions: MCPegasusBase. *)
EXTENDS MCPegasusBase
=============================================================================
