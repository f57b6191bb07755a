package dev.innet.netcache;

import dev.innet.kv.KvTraceFields;
import dev.innet.kv.cache.CacheControlNames;
import dev.innet.kv.cache.CacheRegisters;
import dev.innet.kv.cache.ControlProcedure;
import dev.innet.kv.cache.SeqProbe;
import dev.innet.netcache.trace.NetCacheTraceEvents;
import dev.innet.sim.TraceEvent;
import dev.innet.switchapi.SwitchControl;
import dev.innet.wire.InnetMessage;
import java.math.BigInteger;
import java.util.OptionalLong;

/**
 * NetCache admission, the spec's {@code Admit} and {@code AdmitFloor} (NetCache.tla with FillBySeen): install
 * the key invalid, nothing staged, nothing seen and its fill floor unknown; probe the key's server for its
 * record's seq (SEQ_PROBE, retransmitted until answered) and write it as the fill floor. The next read of the
 * key fetches the server's value and NC-8 validates it once it reaches the floor and everything seen of the
 * key since the install (docs/p4-programs.md §4).
 *
 * <p>Why the probe: keys share the switch's sequence counters, so no counter bounds one key's writes. The
 * server's record after the install is at least its record at the install, and every write numbered after
 * the install passes the switch (record_seen_seq), so a reply at or above both is no older than anything a
 * client can have learnt of the key.
 *
 * <p>Preloading runs every step at once with a known floor ({@link #Admit(NetCacheController, int, byte[],
 * long)}): no probe.
 */
public class Admit implements ControlProcedure {
    private static final int INVALIDATE = 0;
    private static final int INSTALL_KEY = 1;
    private static final int AWAIT_FLOOR = 2;

    private final NetCacheController controller;
    private final int index;
    private final byte[] key;
    /** The floor given up front (no probe), or empty: probe the server. */
    private final OptionalLong knownFloor;
    /** The probe, once sent (none for a known floor). */
    private SeqProbe probe;
    private int stage = INVALIDATE;

    protected Admit(NetCacheController controller, int index, byte[] key) {
        this(controller, index, key, OptionalLong.empty());
    }

    /** An admission whose fill floor is known without a probe (preloading). */
    protected Admit(NetCacheController controller, int index, byte[] key, long floor) {
        this(controller, index, key, OptionalLong.of(floor));
    }

    private Admit(NetCacheController controller, int index, byte[] key, OptionalLong knownFloor) {
        this.controller = controller;
        this.index = index;
        this.key = key;
        this.knownFloor = knownFloor;
    }

    @Override
    public boolean step(SwitchControl c) {
        switch (stage) {
            case INVALIDATE -> {
                c.registerWrite(CacheControlNames.RECORD_VALID, index, BigInteger.ZERO);
                c.registerWrite(CacheControlNames.RECORD_SEQ, index, BigInteger.ZERO);
                // nothing of the new key seen yet (the slot's previous key's seqs must not bound it); no reply
                // validates the record before its floor is known
                c.registerWrite(CacheControlNames.RECORD_SEEN_SEQ, index, BigInteger.ZERO);
                c.registerWrite(CacheControlNames.RECORD_FILL_FLOOR, index,
                        BigInteger.valueOf(knownFloor.orElse(CacheControlNames.FLOOR_UNKNOWN)));
                c.registerWrite(CacheControlNames.CACHED_FREQUENCY, index, BigInteger.ZERO);
                stage = INSTALL_KEY;
            }
            case INSTALL_KEY -> {
                c.addEntry(CacheRegisters.lookupEntry(key, index));
                // the spec's Admit: from here packets of the key see the slot (invalid, nothing staged)
                controller.context().trace(TraceEvent.of(NetCacheTraceEvents.ADMIT)
                        .with("key", KvTraceFields.key(key)).with("index", index)
                        .with("floor", knownFloor.orElse(-1)));
                if (knownFloor.isPresent()) {
                    controller.admitted();
                    return true;
                }
                probe = newProbe();
                probe.send();
                controller.scheduleProbeRetry();
                stage = AWAIT_FLOOR;
            }
            case AWAIT_FLOOR -> {
                if (probe.answer().isEmpty()) {
                    return false; // waiting for SEQ_PROBE_REPLY; retransmissions on the retry timer
                }
                long floor = fillFloor(probe.answer().getAsLong());
                c.registerWrite(CacheControlNames.RECORD_FILL_FLOOR, index, BigInteger.valueOf(floor));
                controller.context().trace(TraceEvent.of(NetCacheTraceEvents.ADMIT_FLOOR)
                        .with("key", KvTraceFields.key(key)).with("seq", floor));
                controller.admitted();
                return true;
            }
            default -> throw new IllegalStateException("admission past its last stage");
        }
        return false;
    }

    /** The fill floor written for the probe's answer {@code probed}: itself. A seam for seeded-bug tests. */
    protected long fillFloor(long probed) {
        return probed;
    }

    @Override
    public boolean onReply(InnetMessage msg) {
        return probe != null && probe.offer(msg);
    }

    /** The probe of the key's server this admission sends. A seam for seeded-bug tests (its matching). */
    protected SeqProbe newProbe() {
        return new SeqProbe(controller, key);
    }

    /** The key admitted. */
    public byte[] key() {
        return key.clone();
    }

    /** Whether the admission has sent its probe and no reply to it has arrived yet (the spec's probing[k] /= 0). */
    public boolean awaitingFloor() {
        return probe != null && probe.awaited();
    }

    /** The spec's {@code ProbeResend}: the probe or its reply was lost. Returns whether it was resent. */
    boolean retransmit() {
        return probe != null && probe.resendIfAwaited();
    }
}
