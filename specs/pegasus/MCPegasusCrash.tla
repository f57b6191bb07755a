------------------------ MODULE MCPegasusCrash ------------------------
(* Switch crash and recovery (ours) with the core protocol (S6.2). *)
(* Bounds and flags: MCPegasusCrash.cfg.  Shared definitions: MCPegasusBase. *)
EXTENDS MCPegasusBase
=============================================================================
