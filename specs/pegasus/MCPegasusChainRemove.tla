------------------------ MODULE MCPegasusChainRemove ------------------------
(* S7 + S6.3: the tail adds the key, marks it, and removes it on a reply. *)
(* Bounds and flags: MCPegasusChainRemove.cfg.  Shared definitions: MCPegasusChainBase. *)
EXTENDS MCPegasusChainBase
=============================================================================
