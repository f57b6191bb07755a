-------------------- MODULE MCPegasusAdd --------------------
(* Model of Pegasus.tla; bounds and flags are in MCPegasusAdd.cfg. *)
EXTENDS MCPegasusBase
============================================================
