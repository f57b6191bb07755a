package dev.innet.farreach.controller;

import dev.innet.kv.cache.CacheControlNames;
import dev.innet.kv.cache.CacheRegisters;
import dev.innet.kv.cache.Removal;
import dev.innet.switchapi.EntrySpec;
import dev.innet.switchapi.Match;
import dev.innet.switchapi.SwitchControl;
import java.math.BigInteger;

/**
 * After a controller restart the switch still holds the cache: rebuild the controller's view from it.
 * (Not a spec action: the spec's controller does not crash; docs/specs/farreach.md.) Entries of an
 * admission that did not finish (not valid) are removed; an eviction that did not finish (to-be-evicted
 * set) is resumed from the point where it sends the record to the server, which is safe to repeat
 * (servers keep the higher sequence number); a recovery that did not finish runs again from its
 * collection round. A snapshot the previous incarnation did not finish is abandoned; one still due
 * comes later.
 */
final class Relearn {
    private final FarReachController controller;

    Relearn(FarReachController controller) {
        this.controller = controller;
    }

    void run(SwitchControl control, boolean afterControllerRestart) {
        control.registerWrite(FarReachControlNames.SNAPSHOT_EPOCH, 0, BigInteger.ZERO);
        for (EntrySpec e : control.readEntries(CacheControlNames.CACHE_LOOKUP)) {
            byte[] key = CacheRegisters.keyBytes(((Match.Exact) e.match().get(0)).value());
            int index = e.args().get(0).intValue();
            boolean valid = control.registerRead(CacheControlNames.RECORD_VALID, index).signum() != 0;
            boolean evicting = control.registerRead(FarReachControlNames.RECORD_EVICTING, index).signum() != 0;
            controller.directory().adopt(index, key);
            if (evicting) {
                controller.queueResumed(controller.newEvict(index, key, true));
            } else if (!valid) {
                controller.queueResumed(new Removal(controller, index, key));
            }
        }
        if (control.registerRead(FarReachControlNames.RECOVERING, 0).signum() != 0) {
            controller.clearResumed();
            controller.queueResumed(controller.newRecover(true));
        }
        controller.context().log("relearned " + controller.directory().size() + " cached records (controller restart: "
                + afterControllerRestart + ")");
    }
}
