package dev.innet.kv.cache;

import dev.innet.switchapi.SwitchControl;
import java.math.BigInteger;

/**
 * Removes a record without storing it anywhere, in one step: NetCache's eviction (the server has every
 * value) and the cleanup of a FarReach admission that never became valid.
 */
public final class Removal implements ControlProcedure {
    private final CacheController controller;
    private final int index;
    private final byte[] key;

    public Removal(CacheController controller, int index, byte[] key) {
        this.controller = controller;
        this.index = index;
        this.key = key;
    }

    @Override
    public boolean step(SwitchControl c) {
        CacheRegisters.deleteLookupEntry(c, key);
        c.registerWrite(CacheControlNames.RECORD_VALID, index, BigInteger.ZERO);
        controller.released(index, key);
        return true;
    }
}
