---- MODULE MCPegasusLiveRemovalRewriteLoss ----
(* Issue 16's fix in one rack: MCPegasusLive_RemovalAMO with the controller's removal rewrite. *)
(* Bounds in the .cfg; definitions in MCPegasusLive. *)
EXTENDS MCPegasusLive
====
