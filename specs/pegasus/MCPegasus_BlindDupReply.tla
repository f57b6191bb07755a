-------------------- MODULE MCPegasus_BlindDupReply --------------------
(* Model of Pegasus.tla; bounds and flags are in MCPegasus_BlindDupReply.cfg. *)
EXTENDS MCPegasusBase
============================================================
