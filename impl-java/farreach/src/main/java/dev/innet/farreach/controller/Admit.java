package dev.innet.farreach.controller;

import dev.innet.kv.KvTraceFields;
import dev.innet.farreach.trace.FarReachTraceEvents;
import dev.innet.sim.TraceEvent;
import dev.innet.kv.store.StoredRecord;
import dev.innet.kv.KvStatus;
import dev.innet.kv.cache.CacheControlNames;
import dev.innet.kv.cache.CacheRegisters;
import dev.innet.kv.cache.ControlProcedure;
import dev.innet.switchapi.SwitchControl;
import dev.innet.wire.InnetMessage;
import java.math.BigInteger;

/**
 * Non-blocking admission, Fig. 4; the spec's {@code AdmitInstall} then {@code AdmitValidate}: mark the
 * slot invalid, install the record (outdated) and the key, then mark it valid. Reads and writes of the
 * key go on meanwhile; the key is served from the switch only once valid.
 */
public class Admit implements ControlProcedure {
    private final FarReachController controller;
    private final int index;
    private final InnetMessage report;
    private int stage;

    protected Admit(FarReachController controller, int index, InnetMessage report) {
        this.controller = controller;
        this.index = index;
        this.report = report;
    }

    @Override
    public boolean step(SwitchControl c) {
        switch (stage++) {
            case 0 -> c.registerWrite(CacheControlNames.RECORD_VALID, index, BigInteger.ZERO);
            case 1 -> {
                boolean deleted = report.status() == KvStatus.NOT_FOUND;
                CacheRegisters.writeValue(c, index, deleted ? new byte[0] : report.value());
                c.registerWrite(CacheControlNames.RECORD_SEQ, index, BigInteger.valueOf(report.seq()));
                c.registerWrite(FarReachControlNames.RECORD_DELETED, index, deleted ? BigInteger.ONE : BigInteger.ZERO);
                // new records start outdated (Fig. 3(b) (1)): reads stay conservative until a write
                // or a server read reply makes the record latest
                c.registerWrite(FarReachControlNames.RECORD_LATEST, index, BigInteger.ZERO);
                c.registerWrite(FarReachControlNames.RECORD_EVICTING, index, BigInteger.ZERO);
                // writes of the key numbered before its lookup entry exists are known only to its slot's
                // counter, which stays the bound until the key's own write passes (farreach.p4)
                c.registerWrite(CacheControlNames.RECORD_LAST_WRITE_SEQ, index, BigInteger.ZERO);
                c.registerWrite(CacheControlNames.CACHED_FREQUENCY, index, BigInteger.ZERO);
                // a record admitted during snapshot e is not part of it (§3.4): mark it as saved
                c.registerWrite(FarReachControlNames.RECORD_SAVED_EPOCH, index,
                        c.registerRead(FarReachControlNames.SNAPSHOT_EPOCH, 0));
            }
            case 2 -> {
                c.addEntry(CacheRegisters.lookupEntry(report.key(), index));
                // the key is now in the switch's key table, invalid and outdated: the spec's AdmitInstall
                boolean deleted = report.status() == KvStatus.NOT_FOUND;
                controller.context().trace(KvTraceFields.withRecord(TraceEvent.of(FarReachTraceEvents.ADMIT_INSTALL)
                        .with("key", KvTraceFields.key(report.key())), "rec",
                        deleted ? StoredRecord.tombstone(report.seq()) : StoredRecord.value(report.value(), report.seq())));
            }
            case 3 -> {
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
}
