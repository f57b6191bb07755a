package dev.innet.farreach.controller;

import dev.innet.kv.KvTraceFields;
import dev.innet.farreach.trace.FarReachTraceEvents;
import dev.innet.sim.TraceEvent;
import dev.innet.kv.store.StoredRecord;
import dev.innet.kv.KvStatus;
import dev.innet.kv.cache.CacheControlNames;
import dev.innet.kv.cache.CacheRegisters;
import dev.innet.kv.cache.ControlProcedure;
import dev.innet.kv.cache.SeqProbe;
import dev.innet.switchapi.SwitchControl;
import dev.innet.wire.InnetMessage;
import java.math.BigInteger;
import java.util.OptionalLong;

/**
 * Non-blocking admission, Fig. 4, with the fill floor of FR-11; the spec's {@code AdmitInstall},
 * {@code AdmitFloor} and {@code AdmitValidate} (FarReach.tla with {@code FillBySeen}): mark the slot
 * invalid, install the record (outdated, its fill floor unknown) and the key, probe the key's server
 * for its record's seq (SEQ_PROBE, retransmitted until answered) and take it as the fill floor, then
 * mark the record valid. Reads and writes of the key go on meanwhile as misses; the key is served from
 * the switch only once valid.
 *
 * <p>Why the probe: keys share the switch's sequence counters, so no counter bounds one key's writes.
 * The server's record after the install is at least its record at the install, and every write
 * numbered after the install passes the switch (record_seen_seq), so a GET_FOR_CACHE reply at or above
 * both is no older than anything a client can have seen of the key. A reply to an earlier admission's
 * probe carries another request id and is ignored: that record may predate this install (the spec's
 * BugProbeAnyAdmission).
 *
 * <p>Preloading and recovery's re-admission run every step at once and know the floor already
 * ({@link #Admit(FarReachController, int, InnetMessage, long)}): no probe.
 */
public class Admit implements ControlProcedure {
    private static final int INVALIDATE = 0;
    private static final int INSTALL_RECORD = 1;
    private static final int INSTALL_KEY = 2;
    private static final int AWAIT_FLOOR = 3;
    private static final int VALIDATE = 4;

    private final FarReachController controller;
    private final int index;
    private final InnetMessage report;
    /** The floor given up front (no probe), or empty: probe the server. */
    private final OptionalLong knownFloor;
    private int stage = INVALIDATE;
    private final SeqProbe probe;

    protected Admit(FarReachController controller, int index, InnetMessage report) {
        this(controller, index, report, OptionalLong.empty());
    }

    /** An admission whose fill floor is known without a probe (preloading, recovery's re-admission). */
    protected Admit(FarReachController controller, int index, InnetMessage report, long floor) {
        this(controller, index, report, OptionalLong.of(floor));
    }

    private Admit(FarReachController controller, int index, InnetMessage report, OptionalLong knownFloor) {
        this.controller = controller;
        this.index = index;
        this.report = report;
        this.knownFloor = knownFloor;
        this.probe = new SeqProbe(controller, report.key());
    }

    @Override
    public boolean step(SwitchControl c) {
        switch (stage) {
            case INVALIDATE -> {
                c.registerWrite(CacheControlNames.RECORD_VALID, index, BigInteger.ZERO);
                stage = INSTALL_RECORD;
            }
            case INSTALL_RECORD -> {
                boolean deleted = report.status() == KvStatus.NOT_FOUND;
                CacheRegisters.writeValue(c, index, deleted ? new byte[0] : report.value());
                c.registerWrite(CacheControlNames.RECORD_SEQ, index, BigInteger.valueOf(report.seq()));
                c.registerWrite(FarReachControlNames.RECORD_DELETED, index, deleted ? BigInteger.ONE : BigInteger.ZERO);
                // new records start outdated (Fig. 3(b) (1)): reads stay conservative until a write
                // or a server read reply makes the record latest
                c.registerWrite(FarReachControlNames.RECORD_LATEST, index, BigInteger.ZERO);
                c.registerWrite(FarReachControlNames.RECORD_EVICTING, index, BigInteger.ZERO);
                // nothing of the key seen yet; no reply may fill the record before the floor is known
                c.registerWrite(CacheControlNames.RECORD_SEEN_SEQ, index, BigInteger.ZERO);
                c.registerWrite(CacheControlNames.RECORD_FILL_FLOOR, index,
                        BigInteger.valueOf(knownFloor.orElse(CacheControlNames.FLOOR_UNKNOWN)));
                c.registerWrite(CacheControlNames.CACHED_FREQUENCY, index, BigInteger.ZERO);
                // a record admitted during snapshot e is not part of it (§3.4): mark it as saved
                c.registerWrite(FarReachControlNames.RECORD_SAVED_EPOCH, index,
                        c.registerRead(FarReachControlNames.SNAPSHOT_EPOCH, 0));
                stage = INSTALL_KEY;
            }
            case INSTALL_KEY -> {
                c.addEntry(CacheRegisters.lookupEntry(report.key(), index));
                // the key is now in the switch's key table, invalid and outdated: the spec's AdmitInstall
                boolean deleted = report.status() == KvStatus.NOT_FOUND;
                controller.context().trace(KvTraceFields.withRecord(TraceEvent.of(FarReachTraceEvents.ADMIT_INSTALL)
                        .with("key", KvTraceFields.key(report.key())), "rec",
                        deleted ? StoredRecord.tombstone(report.seq()) : StoredRecord.value(report.value(), report.seq())));
                if (knownFloor.isPresent()) {
                    stage = VALIDATE;
                } else {
                    sendProbe();
                    stage = AWAIT_FLOOR;
                }
            }
            case AWAIT_FLOOR -> {
                if (probe.answer().isEmpty()) {
                    return false; // waiting for SEQ_PROBE_REPLY; retransmissions on the retry timer
                }
                controller.cancelRetry();
                long floor = fillFloor(probe.answer().getAsLong());
                c.registerWrite(CacheControlNames.RECORD_FILL_FLOOR, index, BigInteger.valueOf(floor));
                controller.context().trace(TraceEvent.of(FarReachTraceEvents.ADMIT_FLOOR)
                        .with("key", KvTraceFields.key(report.key())).with("seq", floor));
                stage = VALIDATE;
            }
            case VALIDATE -> {
                c.registerWrite(CacheControlNames.RECORD_VALID, index, BigInteger.ONE);
                controller.context().trace(TraceEvent.of(FarReachTraceEvents.ADMIT_VALIDATE)
                        .with("key", KvTraceFields.key(report.key())));
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

    /** The spec's probe, sent with AdmitInstall: SEQ_PROBE to the key's server under a fresh request id. */
    private void sendProbe() {
        probe.send();
        controller.scheduleRetry(this::retransmit);
    }

    @Override
    public boolean onReply(InnetMessage msg) {
        return probe.offer(msg);
    }

    /** The spec's {@code ProbeResend}: the probe or its reply was lost. */
    public void retransmit() {
        if (probe.resendIfAwaited()) {
            controller.stats().probeRetries++;
            controller.scheduleRetry(this::retransmit);
        }
    }
}
