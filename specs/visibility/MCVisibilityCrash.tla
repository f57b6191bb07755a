------------------------ MODULE MCVisibilityCrash ------------------------
(* Small model: metadata node and switch crashes, no packet loss. *)
(* Definitions shared by all models are in MCVisibility; bounds and flags *)
(* are in MCVisibilityCrash.cfg. *)
EXTENDS MCVisibility
=============================================================================
