-------------------- MODULE MCPegasus_NoTableCopy --------------------
(* Model of Pegasus.tla; bounds and flags are in MCPegasus_NoTableCopy.cfg. *)
EXTENDS MCPegasusBase
============================================================
