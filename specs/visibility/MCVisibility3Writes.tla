------------------------ MODULE MCVisibility3Writes ------------------------
(* Full model: three writes on the two fully colliding keys, one read, one  *)
(* loss and one timeout.  Shared definitions are in MCVisibility.           *)
EXTENDS MCVisibility
=============================================================================
