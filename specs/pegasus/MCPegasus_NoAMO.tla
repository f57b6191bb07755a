-------------------- MODULE MCPegasus_NoAMO --------------------
(* Model of Pegasus.tla; bounds and flags are in MCPegasus_NoAMO.cfg. *)
EXTENDS MCPegasusBase
============================================================
