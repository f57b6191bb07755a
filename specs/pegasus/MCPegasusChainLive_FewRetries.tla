---- MODULE MCPegasusChainLive_FewRetries ----
(* Bounds and any replaced rule in the .cfg; definitions in MCPegasusChainLive. *)
EXTENDS MCPegasusChainLive
====
