------------------------ MODULE MCPegasusChainAdd ------------------------
(* The tail adds the key to its directory while writes are on their way, *)
(* and its switch stamps versions of the keys its rack heads.            *)
(* Bounds and flags: MCPegasusChainAdd.cfg.  Shared definitions: MCPegasusChainBase. *)
EXTENDS MCPegasusChainBase
=============================================================================
