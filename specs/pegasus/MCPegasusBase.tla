---------------------------- MODULE MCPegasusBase ----------------------------
(***************************************************************************)
(* Definitions shared by the MC*.tla models of Pegasus: a concrete Home    *)
(* map and the VIEW.  Bounds and flags live in each model's .cfg.          *)
(***************************************************************************)
EXTENDS Pegasus

\* Keys are 1..n; key k lives on server (k mod NServers) + 1, a fixed
\* stand-in for the consistent hashing of S5.
MCHome == [k \in Keys |-> (k % NServers) + 1]

\* S6.6: every key has hash 1, so keys 1 and 2 share one directory entry
\* (Hash <- MCHashCollide in a collision model's .cfg).
MCHashCollide(k) == 1

\* The fingerprint leaves out `act`: it records how a state was reached, not
\* what it is, and keeping it would multiply the states for nothing.
View == <<verNext, rkeys, rset, verCompleted, markVer, store, ctab, net, used,
          wr, rd, execs, extVer, swDown, lostKeys>>
=============================================================================
