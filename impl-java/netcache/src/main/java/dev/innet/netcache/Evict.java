package dev.innet.netcache;

import dev.innet.kv.KvTraceFields;
import dev.innet.kv.cache.ControlProcedure;
import dev.innet.kv.cache.Removal;
import dev.innet.netcache.trace.NetCacheTraceEvents;
import dev.innet.sim.TraceEvent;
import dev.innet.switchapi.SwitchControl;

/**
 * NetCache eviction (the spec's Evict): the record is removed in one step ({@link Removal}: lookup entry
 * deleted, then record_valid cleared); the servers hold every value, so nothing is stored on the way out.
 */
final class Evict implements ControlProcedure {
    private final NetCacheController controller;
    private final int index;
    private final byte[] key;
    private final Removal removal;

    Evict(NetCacheController controller, int index, byte[] key) {
        this.controller = controller;
        this.index = index;
        this.key = key;
        this.removal = new Removal(controller, index, key);
    }

    @Override
    public boolean step(SwitchControl c) {
        boolean done = removal.step(c);
        controller.context().trace(TraceEvent.of(NetCacheTraceEvents.EVICT).with("key", KvTraceFields.key(key))
                .with("index", index));
        return done;
    }

    @Override
    public String procedureName() {
        return "Removal";
    }
}
