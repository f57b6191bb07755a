-------------------- MODULE MCPegasusAMOMove --------------------
(* Model of Pegasus.tla; bounds and flags are in MCPegasusAMOMove.cfg. *)
EXTENDS MCPegasusBase
============================================================
