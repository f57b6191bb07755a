-------------------- MODULE MCPegasus_VWNoDrain --------------------
(* Model of Pegasus.tla; bounds and flags are in MCPegasus_VWNoDrain.cfg. *)
EXTENDS MCPegasusBase
============================================================
