package dev.innet.pegasus.controller;

import dev.innet.switchapi.SwitchControl;
import java.math.BigInteger;

/**
 * The end of a removal: the switch took the key out of the directory (its slot is inactive, the key
 * already behaves as unreplicated) and the controller deletes the rkeys entry and frees the slot.
 */
final class ForgetRemoved implements Procedure {
    private final PegasusController controller;
    private final byte[] key;
    private final int index;

    ForgetRemoved(PegasusController controller, byte[] key, int index) {
        this.controller = controller;
        this.key = key;
        this.index = index;
    }

    @Override
    public boolean step(SwitchControl c) {
        if (c.registerRead(DirectoryNames.KEY_STATE, index).intValue() != DirectoryNames.KEY_INACTIVE) {
            return true; // a stale report: the slot has been reused
        }
        c.deleteEntry(DirectoryNames.RKEYS, controller.rkeysEntry(key, index).match(), 0);
        c.registerWrite(DirectoryNames.WRITE_PAUSED, index, BigInteger.ZERO);
        controller.keyForgotten(key, index);
        return true;
    }
}
