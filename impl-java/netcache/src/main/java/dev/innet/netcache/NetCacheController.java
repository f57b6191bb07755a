package dev.innet.netcache;

import dev.innet.kv.cache.CacheController;
import dev.innet.kv.cache.CacheControllerConfig;
import dev.innet.kv.cache.CacheControllerStats;
import dev.innet.kv.cache.ControlProcedure;
import dev.innet.kv.cache.Removal;
import dev.innet.kv.cache.SequenceBase;
import dev.innet.switchapi.SwitchControl;
import dev.innet.switchapi.SwitchHandle;
import dev.innet.wire.InnetMessage;

/**
 * NetCache's controller and switch OS: the cache controller's loop, where an admission installs the key
 * invalid ({@link Admit}) and an eviction simply removes it (the servers hold every value, so nothing
 * is stored on the way out).
 *
 * <p>Not final: the spec replay ({@code netcache.spec.NetCacheReplay}) subclasses it to start an
 * eviction of the key the spec names, where the loop would pick a victim by sampling.
 */
public class NetCacheController extends CacheController {
    public NetCacheController(CacheControllerConfig config, SwitchHandle handle) {
        super(config, handle, new CacheControllerStats());
    }

    @Override
    protected ControlProcedure admission(int index, InnetMessage report) {
        return new Admit(this, index, report.key());
    }

    @Override
    protected ControlProcedure eviction(int index, byte[] key) {
        return new Removal(this, index, key);
    }

    /**
     * A restarted switch numbers writes from 0 again, below what the servers hold: they would ignore
     * the writes and still acknowledge them. The counters are raised to this incarnation's base before
     * forwarding is installed, so no write is numbered before (found by specs/netcache,
     * MCNetCacheRestartReads; the fix is MCNetCacheRestartSeqBase).
     */
    @Override
    protected void programFreshSwitch(SwitchControl control) {
        if (bringUps() > 1) {
            SequenceBase.raise(control, SequenceBase.of(bringUps()));
        }
        super.programFreshSwitch(control);
    }
}
