---- MODULE MCPegasusLive_RemovalAMO ----
(* Issue 16 without the fix: the one-rack removal stall under at-most-once. *)
(* Bounds in the .cfg; definitions in MCPegasusLive. *)
EXTENDS MCPegasusLive
====
