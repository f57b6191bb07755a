package dev.innet.farreach.controller;

import dev.innet.kv.KvTraceFields;
import dev.innet.farreach.trace.FarReachTraceEvents;
import dev.innet.sim.TraceEvent;
import dev.innet.kv.KvOp;
import dev.innet.kv.cache.CacheControlNames;
import dev.innet.kv.cache.CacheRegisters;
import dev.innet.kv.cache.ControlProcedure;
import dev.innet.kv.store.StoredRecord;
import dev.innet.switchapi.SwitchControl;
import dev.innet.wire.InnetMessage;
import dev.innet.wire.UdpFrame;
import java.math.BigInteger;
import java.util.HexFormat;

/**
 * Available eviction, Fig. 5(a); the spec's {@code EvictStart}, {@code EvictResend} and
 * {@code EvictFinish}: mark the record to-be-evicted, load it, store it at its server and wait for the
 * acknowledgement (retransmitting), then remove it. Reads meanwhile are answered or embed the record
 * (FR-2/3/5); writes go to the server (FR-8).
 */
public class Evict implements ControlProcedure {
    private final FarReachController controller;
    private final int index;
    private final byte[] key;
    private int stage;
    private UdpFrame evictStore;
    private StoredRecord storedRecord;
    private long reqId;
    private boolean acknowledged;

    /** @param resumeAtStore a restarted controller found the record already marked to-be-evicted */
    protected Evict(FarReachController controller, int index, byte[] key, boolean resumeAtStore) {
        this.controller = controller;
        this.index = index;
        this.key = key;
        this.stage = resumeAtStore ? 1 : 0;
    }

    @Override
    public boolean step(SwitchControl c) {
        switch (stage) {
            case 0 -> {
                c.registerWrite(FarReachControlNames.RECORD_EVICTING, index, BigInteger.ONE);
                controller.context().trace(TraceEvent.of(FarReachTraceEvents.EVICT_START)
                        .with("key", KvTraceFields.key(key)));
                stage = 1;
            }
            case 1 -> {
                byte[] value = CacheRegisters.readValue(c, index);
                long seq = c.registerRead(CacheControlNames.RECORD_SEQ, index).longValue();
                boolean deleted = c.registerRead(FarReachControlNames.RECORD_DELETED, index).signum() != 0;
                reqId = controller.nextRequestId();
                storedRecord = deleted ? StoredRecord.tombstone(seq) : StoredRecord.value(value, seq);
                InnetMessage store = new InnetMessage(KvOp.EVICT_STORE, deleted ? KvOp.FLAG_DELETED : 0, 0, reqId, key,
                        seq, new byte[0], value);
                evictStore = controller.frameTo(controller.ring().ownerOf(key), store);
                controller.context().trace(KvTraceFields.withRecord(TraceEvent.of(FarReachTraceEvents.EVICT_STORE)
                        .with("key", KvTraceFields.key(key)), "rec", storedRecord));
                controller.context().network().send(evictStore);
                controller.scheduleRetry(this::retransmit);
                stage = 2;
            }
            case 2 -> {
                if (!acknowledged) {
                    return false; // waiting for EVICT_STORE_REPLY; retransmissions on the retry timer
                }
                controller.cancelRetry();
                CacheRegisters.deleteLookupEntry(c, key);
                c.registerWrite(CacheControlNames.RECORD_VALID, index, BigInteger.ZERO);
                c.registerWrite(FarReachControlNames.RECORD_EVICTING, index, BigInteger.ZERO);
                // the server now durably holds this record (or a newer one): the next snapshot
                // notification lets clients release preserved copies up to its seq
                controller.evictedSinceSnapshot().put(HexFormat.of().formatHex(key), new CachedRecord(key, storedRecord));
                controller.context().trace(TraceEvent.of(FarReachTraceEvents.EVICT_FINISH)
                        .with("key", KvTraceFields.key(key)));
                controller.released(index, key);
                return true;
            }
            default -> throw new IllegalStateException("eviction past its last stage");
        }
        return false;
    }

    @Override
    public boolean onReply(InnetMessage msg) {
        if (stage != 2 || !acknowledges(msg)) {
            return false;
        }
        acknowledged = true;
        return true;
    }

    /**
     * Whether {@code msg} acknowledges this eviction's EVICT_STORE: only the reply carrying its request
     * id does. An acknowledgement of an earlier eviction of the key (duplicated or late) must not finish
     * this one (the spec's BugAckWithoutSeq).
     */
    protected boolean acknowledges(InnetMessage msg) {
        return msg.op() == KvOp.EVICT_STORE_REPLY && msg.reqId() == reqId;
    }

    /** The spec's {@code EvictResend}: the store or its acknowledgement was lost. */
    public void retransmit() {
        if (stage == 2 && !acknowledged) {
            controller.stats().evictStoreRetries++;
            controller.context().network().send(evictStore);
            controller.scheduleRetry(this::retransmit);
        }
    }
}
