-------------------- MODULE MCPegasus_NoReset --------------------
(* Model of Pegasus.tla; bounds and flags are in MCPegasus_NoReset.cfg. *)
EXTENDS MCPegasusBase
============================================================
