---- MODULE MCPegasusRewrite ----
(* Issue 16's fix, safety, one rack: the controller's removal rewrite under the pause. *)
(* Bounds in the .cfg; definitions in MCPegasusBase. *)
EXTENDS MCPegasusBase
====
