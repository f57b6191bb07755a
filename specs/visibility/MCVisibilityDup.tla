---- MODULE MCVisibilityDup ----
(* Bounds in MCVisibilityDup.cfg; shared definitions in MCVisibility. *)
EXTENDS MCVisibility
====
