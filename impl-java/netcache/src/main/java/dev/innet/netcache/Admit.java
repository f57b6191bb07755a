package dev.innet.netcache;

import dev.innet.kv.KvTraceFields;
import dev.innet.kv.cache.CacheControlNames;
import dev.innet.kv.cache.CacheRegisters;
import dev.innet.kv.cache.ControlProcedure;
import dev.innet.netcache.trace.NetCacheTraceEvents;
import dev.innet.sim.TraceEvent;
import dev.innet.switchapi.SwitchControl;
import java.math.BigInteger;

/**
 * NetCache admission: install the key invalid, with sequence number 0; the next read of it fetches
 * the server's value and validates it (docs/p4-programs.md §4, NC-2 and NC-8).
 */
final class Admit implements ControlProcedure {
    private final NetCacheController controller;
    private final int index;
    private final byte[] key;
    private int stage;

    Admit(NetCacheController controller, int index, byte[] key) {
        this.controller = controller;
        this.index = index;
        this.key = key;
    }

    @Override
    public boolean step(SwitchControl c) {
        switch (stage++) {
            case 0 -> {
                c.registerWrite(CacheControlNames.RECORD_VALID, index, BigInteger.ZERO);
                c.registerWrite(CacheControlNames.RECORD_SEQ, index, BigInteger.ZERO);
                // the slot's previous key's writes must not bound the new key's replies: until the new key's own
                // write passes the switch, its slot's sequence counter is the bound
                c.registerWrite(CacheControlNames.RECORD_LAST_WRITE_SEQ, index, BigInteger.ZERO);
                c.registerWrite(CacheControlNames.CACHED_FREQUENCY, index, BigInteger.ZERO);
            }
            case 1 -> {
                c.addEntry(CacheRegisters.lookupEntry(key, index));
                controller.admitted();
                // the spec's Admit: from here packets of the key see the slot (invalid, nothing staged)
                controller.context().trace(TraceEvent.of(NetCacheTraceEvents.ADMIT)
                        .with("key", KvTraceFields.key(key)).with("index", index));
                return true;
            }
            default -> throw new IllegalStateException("admission past its last stage");
        }
        return false;
    }
}
