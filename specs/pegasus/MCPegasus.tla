-------------------- MODULE MCPegasus --------------------
(* Model of Pegasus.tla; bounds and flags are in MCPegasus.cfg. *)
EXTENDS MCPegasusBase
============================================================
