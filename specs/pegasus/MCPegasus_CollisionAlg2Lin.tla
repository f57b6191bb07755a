------------------------ MODULE MCPegasus_CollisionAlg2Lin ------------------------
(* BUGGY: a colliding key's replies feed Algorithm 2: seen by a client. *)
(* Bounds and flags: MCPegasus_CollisionAlg2Lin.cfg.  Shared definitions: MCPegasusBase. *)
EXTENDS MCPegasusBase
=============================================================================
