package dev.innet.visibility.controller;

import dev.innet.switchapi.SwitchControl;
import dev.innet.visibility.wire.LogAddress;
import dev.innet.visibility.wire.VisExt;
import java.math.BigInteger;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;

/**
 * Stale entries (§III-E 1, Table II "Packet Loss (Non-Critical Path)"; spec action SwStaleTimeout): an
 * entry whose asynchronous update or clear was lost stays valid and blocks acceleration of its slot.
 * Each scan reads every entry's valid bit and CurTs; an entry valid with the same CurTs as at the
 * previous scan has been in the switch for at least one scan period (much longer than the normal
 * residence of tens of microseconds), so its update is re-sent to the metadata node, which applies it
 * (idempotently) and clears the entry. The update is rebuilt from the data node's log: the entry's
 * metadata is the log address (our reading: the paper has the metadata node invalidate the entry, which
 * it cannot do safely without the update; docs/specs/visibility.md).
 */
public final class StaleScan {
    private final Map<Integer, Long> previous = new HashMap<>();
    private int next;

    /** One scan of every slot; {@code resend} gets the (slot, fingerprint) and log address of each stale entry. */
    public int scan(SwitchControl control, BiConsumer<VisExt, LogAddress> resend) {
        return scanNext(control, SwitchNames.SLOTS, resend);
    }

    /**
     * Scans the next {@code slots} slots, wrapping around: a sweep in steps, so that a switch OS whose
     * control calls cross a socket (a live rack: each slot is a line of text) never holds its event
     * loop for a whole table's reads. An entry is stale when it is valid with the same CurTs as at the
     * previous visit of its slot.
     */
    public int scanNext(SwitchControl control, int slots, BiConsumer<VisExt, LogAddress> resend) {
        int from = next;
        int to = Math.min(SwitchNames.SLOTS, from + slots) - 1;
        next = to + 1 == SwitchNames.SLOTS ? 0 : to + 1;
        List<BigInteger> valid = control.registerRead(SwitchNames.VALID, from, to);
        List<BigInteger> curTs = control.registerRead(SwitchNames.CUR_TS, from, to);
        int stale = 0;
        for (int slot = from; slot <= to; slot++) {
            if (valid.get(slot - from).signum() == 0) {
                previous.remove(slot);
                continue;
            }
            long ts = curTs.get(slot - from).longValue();
            Long before = previous.put(slot, ts);
            if (before != null && before == ts) {
                long fp = control.registerRead(SwitchNames.FINGERPRINT, slot).longValue();
                LogAddress address = LogAddress.fromSwitchWords(control.registerRead(SwitchNames.META_WORD_0, slot).longValue(),
                        control.registerRead(SwitchNames.META_WORD_1, slot).longValue());
                resend.accept(new VisExt(slot, fp), address);
                stale++;
            }
        }
        return stale;
    }

    public void forget() {
        previous.clear();
        next = 0;
    }
}
