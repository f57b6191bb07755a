---- MODULE MCPegasus_RewriteHomeCopy ----
(* Buggy variant of issue 16's fix in one rack: home's copy instead of the newest. *)
EXTENDS MCPegasusBase
====
