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
    private Map<Integer, Long> previous = new HashMap<>();

    /** One scan; {@code resend} gets the (slot, fingerprint) and log address of each stale entry. */
    public int scan(SwitchControl control, BiConsumer<VisExt, LogAddress> resend) {
        List<BigInteger> valid = control.registerRead(SwitchNames.VALID, 0, SwitchNames.SLOTS - 1);
        List<BigInteger> curTs = control.registerRead(SwitchNames.CUR_TS, 0, SwitchNames.SLOTS - 1);
        Map<Integer, Long> now = new HashMap<>();
        int stale = 0;
        for (int slot = 0; slot < SwitchNames.SLOTS; slot++) {
            if (valid.get(slot).signum() == 0) {
                continue;
            }
            long ts = curTs.get(slot).longValue();
            now.put(slot, ts);
            if (Long.valueOf(ts).equals(previous.get(slot))) {
                long fp = control.registerRead(SwitchNames.FINGERPRINT, slot).longValue();
                LogAddress address = LogAddress.fromSwitchWords(control.registerRead(SwitchNames.META_WORD_0, slot).longValue(),
                        control.registerRead(SwitchNames.META_WORD_1, slot).longValue());
                resend.accept(new VisExt(slot, fp), address);
                stale++;
            }
        }
        previous = now;
        return stale;
    }

    public void forget() {
        previous = new HashMap<>();
    }
}
