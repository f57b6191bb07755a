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
        // The switch's report and the periodic scan may both queue this for one removal: only the
        // first finds the slot still marked in the controller's view (found by AtMostOnceTest's
        // fast transitions: the second delete of the entry failed).
        if (!controller.awaitingRemoval(key, index)
                || c.registerRead(DirectoryNames.KEY_STATE, index).intValue() != DirectoryNames.KEY_INACTIVE) {
            return true;
        }
        c.deleteEntry(DirectoryNames.RKEYS, controller.rkeysEntry(key, index).match(), 0);
        c.registerWrite(DirectoryNames.WRITE_PAUSED, index, BigInteger.ZERO);
        controller.keyForgotten(key, index);
        return true;
    }
}
