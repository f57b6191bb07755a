-------------------- MODULE MCPegasus_AcceptLower --------------------
(* Model of Pegasus.tla; bounds and flags are in MCPegasus_AcceptLower.cfg. *)
EXTENDS MCPegasusBase
============================================================
