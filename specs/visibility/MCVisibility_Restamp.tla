---- MODULE MCVisibility_Restamp ----
(* Buggy variant BugRestamp: see MCVisibility_Restamp.cfg. *)
EXTENDS MCVisibility
====
