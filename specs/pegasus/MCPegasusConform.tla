------------------------ MODULE MCPegasusConform ------------------------
(* Conformance-only model (docs/conformance.md, "Pegasus"): the behaviours *)
(* ./innet conform --protocol pegasus replays on p4/pegasus.p4 and the Java *)
(* servers, clients and controller.  At-most-once on (the implementation   *)
(* always runs S6.4), and every action of Next enabled at once: add, mark, *)
(* virtual write, retries, a loss and a duplicate, reads and writes.       *)
(* Bounds and flags: MCPegasusConform.cfg.                                 *)
EXTENDS MCPegasusBase
=============================================================================
