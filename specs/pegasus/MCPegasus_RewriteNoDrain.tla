---- MODULE MCPegasus_RewriteNoDrain ----
(* Buggy variant of issue 16's fix in one rack: the version-conditional rewrite without the pause. *)
EXTENDS MCPegasusBase
====
