------------------------ MODULE MCVisibilityMdnCrash ------------------------
(* Small model: one metadata node crash (with rebuild), no packet loss. *)
(* Shared definitions are in MCVisibility; bounds are in the .cfg.          *)
EXTENDS MCVisibility
=============================================================================
