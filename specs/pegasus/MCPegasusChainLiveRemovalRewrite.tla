---- MODULE MCPegasusChainLiveRemovalRewrite ----
(* Issue 16's fix: MCPegasusChainLive_RemovalAMO with the tail's removal rewrite. *)
(* Bounds in the .cfg; definitions in MCPegasusChainLive. *)
EXTENDS MCPegasusChainLive
====
