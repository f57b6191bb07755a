---- MODULE MCPegasusChainLive_StaticTail ----
(* Bounds and any replaced rule in the .cfg; definitions in MCPegasusChainLive. *)
EXTENDS MCPegasusChainLive
====
