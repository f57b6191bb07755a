--------------------- MODULE MCPegasusConformRewrite ---------------------
(* Conformance-only model (docs/conformance.md, "Pegasus"): issue 16's     *)
(* removal rewrite replayed on p4/pegasus.p4 and the Java servers, clients *)
(* and controller.  Key 1 starts replicated; the controller may mark it,   *)
(* end the removal with one rewrite, and add it again; at-most-once on.   *)
(* Bounds and flags: MCPegasusConformRewrite.cfg.                          *)
EXTENDS MCPegasusBase
=============================================================================
