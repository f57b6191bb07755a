---- MODULE MCPegasus_RecoverVerNext ----
(* Buggy variant of the switch recovery: ver_next left at the fresh switch's 1. *)
EXTENDS MCPegasusBase
====
