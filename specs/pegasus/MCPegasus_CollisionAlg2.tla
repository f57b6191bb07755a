------------------------ MODULE MCPegasus_CollisionAlg2 ------------------------
(* BUGGY: a colliding key's replies feed Algorithm 2. *)
(* Bounds and flags: MCPegasus_CollisionAlg2.cfg.  Shared definitions: MCPegasusBase. *)
EXTENDS MCPegasusBase
=============================================================================
