---- MODULE MCPegasusCrashCtl ----
(* Switch crash and recovery (ours) with add and mark for removal. *)
EXTENDS MCPegasusBase
====
