---- MODULE MCVisibility_RestampRetry ----
(* Bounds in MCVisibility_RestampRetry.cfg; shared definitions in MCVisibility. *)
EXTENDS MCVisibility
====
