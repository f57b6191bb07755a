package dev.innet.farreach.controller;

import dev.innet.kv.KvTraceFields;
import dev.innet.farreach.trace.FarReachTraceEvents;
import dev.innet.sim.TraceEvent;
import dev.innet.farreach.wire.SnapshotCoverage;
import dev.innet.kv.KvOp;
import dev.innet.kv.store.StoredRecord;
import dev.innet.kv.cache.ControlProcedure;
import dev.innet.switchapi.SwitchControl;
import dev.innet.wire.InnetMessage;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Crash-consistent snapshot, §3.4 Figure 6, without blocking writes; the spec's {@code SnapStart},
 * {@code SnapLoad} and {@code SnapFinish}: (phase 1) the switch starts reporting the original of each
 * record's first change; the controller loads every record, marking it saved; (phase 2) reporting
 * stops; originals win over loaded records, because a record loaded after its first change no longer
 * shows the snapshot point. The corner cases of records admitted or evicted after the snapshot point
 * cannot arise here: the controller runs one procedure at a time, so no admission or eviction
 * interleaves with a snapshot (reads and writes do).
 */
public class Snap implements ControlProcedure {
    private static final String DURABLE_EPOCH = "snapshot-epoch";
    /** Records loaded per control step (one batch read, as P4Runtime allows). */
    static final int LOADS_PER_STEP = 32;
    /** How long to wait for the originals the switch reported. */
    private static final long WAIT_NANOS = 5_000_000;

    protected final FarReachController controller;
    private long epoch;
    private long started;
    /** Slots cached at the snapshot point; those from {@code next} on are not loaded yet. */
    private List<Integer> toLoad;
    private int next;
    private final TreeMap<String, CachedRecord> loaded = new TreeMap<>();
    /** Keys changed since the snapshot point: the switch reports their originals. */
    protected final Set<String> awaitingOriginal = new TreeSet<>();
    private long deadline;
    private int stage;

    protected Snap(FarReachController controller) {
        this.controller = controller;
    }

    @Override
    public boolean step(SwitchControl c) {
        switch (stage) {
            case 0 -> {
                // Epochs never repeat, not even after a controller restart: records keep the number of
                // an abandoned attempt in record_saved_epoch, and a repeated number would make the
                // switch skip their originals (safe - the snapshot is abandoned - but wasteful).
                var durable = controller.context().durable();
                epoch = durable.get(DURABLE_EPOCH).map(b -> ByteBuffer.wrap(b).getLong()).orElse(0L) + 1;
                durable.put(DURABLE_EPOCH, ByteBuffer.allocate(8).putLong(epoch).array());
                durable.sync();
                started = controller.context().clock().nowNanos();
                controller.snapshotStarted(epoch);
                c.registerWrite(FarReachControlNames.SNAPSHOT_EPOCH, 0, BigInteger.valueOf(epoch));
                controller.hooks().snapshotPoint(epoch);
                controller.context().trace(TraceEvent.of(FarReachTraceEvents.SNAP_START).with("epoch", epoch));
                toLoad = new ArrayList<>(controller.directory().indices());
                stage = 1;
            }
            case 1 -> {
                for (int n = 0; next < toLoad.size(); n++, next++) {
                    int position = controller.nextSnapshotLoad(
                            Collections.unmodifiableList(toLoad.subList(next, toLoad.size())), n);
                    if (position < 0) {
                        break;
                    }
                    Collections.swap(toLoad, next, next + position); // the chosen slot is loaded now
                    int index = toLoad.get(next);
                    byte[] key = controller.directory().keyAt(index);
                    String k = HexFormat.of().formatHex(key);
                    // the spec's SnapLoad(k): the record is loaded, or (changed since the point) its original stands
                    TraceEvent load = TraceEvent.of(FarReachTraceEvents.SNAP_LOAD).with("key", KvTraceFields.key(key));
                    if (c.registerRead(FarReachControlNames.RECORD_SAVED_EPOCH, index).longValue() == epoch) {
                        awaitingOriginal.add(k); // changed since the snapshot point: its original is reported
                        load.with("loaded", false);
                    } else {
                        StoredRecord record = FarReachController.readRecord(c, index);
                        loaded.put(k, new CachedRecord(key, record));
                        c.registerWrite(FarReachControlNames.RECORD_SAVED_EPOCH, index, BigInteger.valueOf(epoch));
                        KvTraceFields.withRecord(load.with("loaded", true), "rec", record);
                    }
                    controller.context().trace(load);
                }
                if (next == toLoad.size()) {
                    stage = 2;
                }
            }
            case 2 -> {
                c.registerWrite(FarReachControlNames.SNAPSHOT_EPOCH, 0, BigInteger.ZERO);
                deadline = controller.context().clock().nowNanos() + WAIT_NANOS;
                stage = 3;
            }
            case 3 -> {
                Map<String, CachedRecord> changed = changedRecords(c);
                if (changed == null) {
                    if (controller.context().clock().nowNanos() < deadline) {
                        return false;
                    }
                    // an original was lost on its way: this snapshot cannot be trusted; keep the last
                    controller.snapshotAbandoned();
                    controller.context().trace(TraceEvent.of(FarReachTraceEvents.SNAP_ABANDONED).with("epoch", epoch)
                            .with("missingOriginals", awaitingOriginal.size()));
                    controller.stats().snapshotsAbandoned++;
                    controller.context().log("snapshot " + epoch + " abandoned: " + awaitingOriginal.size()
                            + " originals missing");
                    return true;
                }
                loaded.putAll(changed);
                complete();
                return true;
            }
            default -> throw new IllegalStateException("snapshot past its last stage");
        }
        return false;
    }

    /**
     * The snapshot-point records of the keys changed since the snapshot point: the originals the switch
     * reported, once all have arrived; null while some are missing.
     */
    protected Map<String, CachedRecord> changedRecords(SwitchControl c) {
        Map<String, CachedRecord> originals = controller.originals();
        if (!originals.keySet().containsAll(awaitingOriginal)) {
            return null;
        }
        Map<String, CachedRecord> changed = new TreeMap<>();
        for (String k : awaitingOriginal) {
            changed.put(k, originals.get(k));
        }
        return changed;
    }

    private void complete() {
        List<CachedRecord> records = List.copyOf(loaded.values());
        controller.snapshotCompleted(new SnapshotCodec.Snapshot(epoch, records));
        TraceEvent kept = TraceEvent.of(FarReachTraceEvents.SNAP_FINISH).with("epoch", epoch).with("records", records.size());
        for (int i = 0; i < records.size(); i++) {
            // one record per numbered field group: key{i}, then the record under rec{i}
            kept.with("key" + i, KvTraceFields.key(records.get(i).key()));
            KvTraceFields.withRecord(kept, "rec" + i, records.get(i).record());
        }
        controller.context().trace(kept);
        controller.stats().snapshots++;
        controller.hooks().snapshotTaken(epoch, records, started, controller.context().clock().nowNanos());
        // tell clients which preserved records are now safe without them (§3.4)
        List<CachedRecord> covered = new ArrayList<>(records);
        covered.addAll(controller.evictedSinceSnapshot().values());
        controller.evictedSinceSnapshot().clear();
        List<SnapshotCoverage.Entry> entries = covered.stream().map(r -> new SnapshotCoverage.Entry(r.key(), r.seq())).toList();
        for (byte[] chunk : SnapshotCoverage.encode(entries)) {
            for (int client : controller.config().clients()) {
                controller.sendControl(client, new InnetMessage(KvOp.SNAPSHOT_DONE, 0, 0, epoch,
                        new byte[InnetMessage.KEY_BYTES], 0, new byte[0], chunk));
            }
        }
    }
}
