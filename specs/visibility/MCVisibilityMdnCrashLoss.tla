---- MODULE MCVisibilityMdnCrashLoss ----
(* Bounds in MCVisibilityMdnCrashLoss.cfg; shared definitions in MCVisibility. *)
EXTENDS MCVisibility
====
