package dev.innet.netcache;

import dev.innet.kv.cache.CacheController;
import dev.innet.kv.cache.CacheControllerConfig;
import dev.innet.kv.cache.CacheControllerStats;
import dev.innet.kv.cache.ControlProcedure;
import dev.innet.kv.cache.SequenceBase;
import dev.innet.netcache.trace.NetCacheTraceEvents;
import dev.innet.sim.TraceEvent;
import dev.innet.switchapi.SwitchControl;
import dev.innet.switchapi.SwitchHandle;
import dev.innet.wire.InnetMessage;

/**
 * NetCache's controller and switch OS: the cache controller's loop, where an admission installs the key
 * invalid and probes its server for the fill floor ({@link Admit}) and an eviction simply removes it (the
 * servers hold every value, so nothing is stored on the way out).
 *
 * <p>Not final: the spec replay ({@code netcache.spec.NetCacheReplay}) subclasses it to start an
 * eviction of the key the spec names, where the loop would pick a victim by sampling.
 */
public class NetCacheController extends CacheController {
    /** How long an admission waits for its probe's reply before it sends the probe again. */
    static final long PROBE_RETRY_NANOS = 1_000_000;

    private long probeRetryTimer = -1;
    /** The floor of this switch incarnation's sequence numbers (SequenceBase), for preloaded records. */
    private long seqBase;

    public NetCacheController(CacheControllerConfig config, SwitchHandle handle) {
        super(config, handle, new CacheControllerStats());
    }

    @Override
    protected ControlProcedure admission(int index, InnetMessage report) {
        return newAdmit(index, report.key());
    }

    /** The admission of a reported hot key, which probes the key's server. A seam for seeded-bug tests. */
    protected Admit newAdmit(int index, byte[] key) {
        return new Admit(this, index, key);
    }

    /**
     * Preloading runs when a fresh switch is programmed, in the same control step as forwarding: no packet of
     * the key has passed the switch yet, every write from now on is numbered at or above this incarnation's
     * base (and passes the switch, record_seen_seq), and every reply of an earlier incarnation carries a seq
     * below it. So the base is a sound fill floor (0 on the first switch), and no probe is needed.
     */
    @Override
    protected ControlProcedure admissionAtOnce(int index, InnetMessage report) {
        return new Admit(this, index, report.key(), seqBase);
    }

    /** Asks for {@link Admit#retransmit} of the admission running now after {@link #PROBE_RETRY_NANOS}. */
    void scheduleProbeRetry() {
        probeRetryTimer = context().timers().schedule(PROBE_RETRY_NANOS);
    }

    /**
     * The timer of the latest admission's probe retry (pending or not). The spec replay fires it only for the
     * spec's ProbeResend, never while it runs the loop's own timers.
     */
    protected final long probeRetryTimer() {
        return probeRetryTimer;
    }

    /** The probe's retry timer: the spec's ProbeResend, if the admission that set it still waits. */
    @Override
    protected void onProtocolTimer(long timerId) {
        if (timerId == probeRetryTimer && currentTask() instanceof Admit admit && admit.retransmit()) {
            scheduleProbeRetry();
        }
    }

    @Override
    protected ControlProcedure eviction(int index, byte[] key) {
        return new Evict(this, index, key);
    }

    /**
     * A restarted switch numbers writes from 0 again, below what the servers hold: they would ignore
     * the writes and still acknowledge them. The counters are raised to this incarnation's base before
     * forwarding is installed, so no write is numbered before (found by specs/netcache,
     * MCNetCacheRestartReads; the fix is MCNetCacheRestartSeqBase).
     */
    @Override
    protected void programFreshSwitch(SwitchControl control) {
        long base = bringUps() > 1 ? raiseSequenceCounters(control, SequenceBase.of(bringUps())) : 0;
        seqBase = base;
        super.programFreshSwitch(control);
        // the spec's SwitchRestart (bringUp > 1): from here the fresh switch forwards, counters at base
        context().trace(TraceEvent.of(NetCacheTraceEvents.SWITCH_PROGRAMMED).with("bringUp", bringUps())
                .with("seqBase", base));
    }

    /**
     * Raises every sequence counter to {@code base}; returns the floor the counters now have. Overridden
     * only by tests that seed the restart bug.
     */
    protected long raiseSequenceCounters(SwitchControl control, long base) {
        SequenceBase.raise(control, base);
        return base;
    }
}
