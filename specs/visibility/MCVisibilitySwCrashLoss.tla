---- MODULE MCVisibilitySwCrashLoss ----
(* Bounds in MCVisibilitySwCrashLoss.cfg; shared definitions in MCVisibility. *)
EXTENDS MCVisibility
====
