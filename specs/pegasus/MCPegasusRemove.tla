-------------------- MODULE MCPegasusRemove --------------------
(* Model of Pegasus.tla; bounds and flags are in MCPegasusRemove.cfg. *)
EXTENDS MCPegasusBase
============================================================
