---- MODULE MCPegasus_RecoverNoDrain ----
(* Buggy variant of the switch recovery: no drain before the controller's reads. *)
EXTENDS MCPegasusBase
====
