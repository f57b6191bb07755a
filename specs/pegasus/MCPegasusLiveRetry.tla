---- MODULE MCPegasusLiveRetry ----
(* Bounds and any replaced rule in the .cfg; definitions in MCPegasusLive. *)
EXTENDS MCPegasusLive
====
