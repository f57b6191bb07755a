-------------------- MODULE MCPegasusCtl --------------------
(* Model of Pegasus.tla; bounds and flags are in MCPegasusCtl.cfg. *)
EXTENDS MCPegasusBase
============================================================
