----------------------------- MODULE MCPegasus -----------------------------
(* Small model of the core protocol (S6.2): see MCPegasus.cfg for bounds. *)
EXTENDS MCPegasusBase
=============================================================================
