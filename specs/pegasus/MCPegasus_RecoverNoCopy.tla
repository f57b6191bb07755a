---- MODULE MCPegasus_RecoverNoCopy ----
(* Buggy variant of the switch recovery: no newest copy written to home. *)
EXTENDS MCPegasusBase
====
