---- MODULE MCPegasusChainLive_RemovalAMO ----
(* Bounds and any replaced rule in the .cfg; definitions in MCPegasusChainLive. *)
EXTENDS MCPegasusChainLive
====
