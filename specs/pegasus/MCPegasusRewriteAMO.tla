---- MODULE MCPegasusRewriteAMO ----
(* Issue 16's fix, safety under at-most-once with table migration, one rack. *)
(* Bounds in the .cfg; definitions in MCPegasusBase. *)
EXTENDS MCPegasusBase
====
