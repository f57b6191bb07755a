---- MODULE MCPegasusCrashVW ----
(* Switch crash and recovery (ours) with add, mark and a virtual write. *)
EXTENDS MCPegasusBase
====
