---- MODULE MCPegasusLive_RemovalCold ----
(* Issue 16 without the fix: a marked key no write reaches stays. Bounds in the .cfg. *)
EXTENDS MCPegasusLive
====
