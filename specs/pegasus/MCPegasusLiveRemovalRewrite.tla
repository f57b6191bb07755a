---- MODULE MCPegasusLiveRemovalRewrite ----
(* Issue 16's fix in one rack, liveness without packet loss. Bounds in the .cfg; definitions in MCPegasusLive. *)
EXTENDS MCPegasusLive
====
