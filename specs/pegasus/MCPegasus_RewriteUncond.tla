---- MODULE MCPegasus_RewriteUncond ----
(* Buggy variant of issue 16's fix in one rack: the unpaused rewrite. Bounds in the .cfg. *)
EXTENDS MCPegasusBase
====
