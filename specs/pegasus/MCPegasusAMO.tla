-------------------- MODULE MCPegasusAMO --------------------
(* Model of Pegasus.tla; bounds and flags are in MCPegasusAMO.cfg. *)
EXTENDS MCPegasusBase
============================================================
