---- MODULE MCPegasusCrashAMO ----
(* Switch crash and recovery (ours) under at-most-once, with a removal mark. *)
EXTENDS MCPegasusBase
====
