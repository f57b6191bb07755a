-------------------- MODULE MCPegasusVW --------------------
(* Model of Pegasus.tla; bounds and flags are in MCPegasusVW.cfg. *)
EXTENDS MCPegasusBase
============================================================
