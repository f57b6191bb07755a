-------------------- MODULE MCPegasus_EarlyRemove --------------------
(* Model of Pegasus.tla; bounds and flags are in MCPegasus_EarlyRemove.cfg. *)
EXTENDS MCPegasusBase
============================================================
