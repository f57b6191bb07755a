---- MODULE MCPegasus_RecoverNoTableCopy ----
(* Buggy variant of the switch recovery: client tables not migrated home (at-most-once). *)
EXTENDS MCPegasusBase
====
