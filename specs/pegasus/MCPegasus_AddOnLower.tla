-------------------- MODULE MCPegasus_AddOnLower --------------------
(* Model of Pegasus.tla; bounds and flags are in MCPegasus_AddOnLower.cfg. *)
EXTENDS MCPegasusBase
============================================================
