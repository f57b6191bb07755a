-------------------------- MODULE VisibilityRepair --------------------------
(***************************************************************************)
(* The stale-entry repair question (III-E 1, Table II).  The paper: "the   *)
(* loss of a non-critical path packet ... leaves a stale entry in the      *)
(* switch ... The metadata node detects this situation after a timeout by  *)
(* not receiving the expected acknowledgement and then issues a command to *)
(* invalidate the stale switch entry", and the reclaim messages "include   *)
(* timestamps".                                                            *)
(*                                                                         *)
(* Visibility.tla splits the non-critical losses in two:                   *)
(*  - the clear or its acknowledgement is lost: the metadata node holds    *)
(*    the update and misses the acknowledgement; it re-sends the clear     *)
(*    with the entry's timestamp (MdnClearTimeout).  That is the paper's   *)
(*    invalidation, as written.                                            *)
(*  - the asynchronous update (MUpd) itself is lost: the metadata node     *)
(*    never heard of the write, so it has no acknowledgement to miss and   *)
(*    no timestamp to name.  Invalidating the entry then would drop the    *)
(*    only copy of a committed write's metadata outside the data log.  The *)
(*    spec instead re-sends the entry's metadata to the metadata node      *)
(*    (SwStaleTimeout), which applies it and clears the entry as usual.    *)
(*                                                                         *)
(* This module is the alternative reading, so that TLC can decide it: on   *)
(* the stale-entry timeout the entry is invalidated without its update     *)
(* reaching the metadata node.  MCVisibility_BlindInvalidate shows that a  *)
(* read then misses a committed write (Linearizable fails).                *)
(***************************************************************************)
EXTENDS Visibility

\* The entry at slot s has been valid for a timeout and nothing for it is in
\* flight or deferred (as SwStaleTimeout): it is invalidated outright.
BlindInvalidate(s) ==
    /\ swUp /\ sw[s].valid
    /\ faults.timeout < MaxTimeouts
    /\ LET e == sw[s]
       IN  /\ \A m \in net : ~(m.type \in {"MUpd", "Clr"} /\ m.key = e.key /\ m.ts = e.ts)
           /\ \A d \in deferred : d.ts # e.ts \/ d.key # e.key
           /\ sw' = [sw EXCEPT ![s] = NoEntry]
           /\ cleared' = cleared \cup {[key |-> e.key, ts |-> e.ts]}
    /\ faults' = [faults EXCEPT !.timeout = @ + 1]
    /\ act' = Act("BlindInvalidate", <<s>>, FALSE)
    /\ UNCHANGED <<net, dlog, tsGen, maxTs, swUp, idx, deferred, pendClr, wr, rd, clock, linVars>>

\* Next with the blind invalidation as the stale-entry repair (the .cfg
\* leaves "stale" out of TimeoutKinds, so SwStaleTimeout never fires).
NextBlindInvalidate == Next \/ \E s \in Slots : BlindInvalidate(s)
SpecBlindInvalidate == Init /\ [][NextBlindInvalidate]_vars
=============================================================================
