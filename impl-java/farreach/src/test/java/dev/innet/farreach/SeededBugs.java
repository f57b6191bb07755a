package dev.innet.farreach;

import dev.innet.farreach.controller.CachedRecord;
import dev.innet.farreach.server.FarReachServer;
import dev.innet.farreach.controller.ControllerHooks;
import dev.innet.farreach.controller.FarReachController;
import dev.innet.farreach.controller.FarReachSettings;
import dev.innet.farreach.controller.Recover;
import dev.innet.farreach.controller.Snap;
import dev.innet.kv.cache.CacheControllerConfig;
import dev.innet.kv.server.ServerConfig;
import dev.innet.kv.store.RecordStore;
import dev.innet.kv.store.RecordStoreOpener;
import dev.innet.switchapi.SwitchControl;
import dev.innet.switchapi.SwitchHandle;
import dev.innet.rack.RackRuns;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.Map;
import java.util.TreeMap;

/**
 * FarReach's seeded bugs, each a test-only subclass that breaks one rule of the protocol, injected
 * into a rack through {@link FarReachProtocol}'s factories. Tests show a monitor catching each one; no
 * production class knows they exist.
 */
final class SeededBugs {
    private SeededBugs() {}

    /** Servers apply every numbered write in arrival order, as if sequence numbers did not exist. */
    static final class ServerIgnoringSequenceNumbers extends FarReachServer {
        ServerIgnoringSequenceNumbers(ServerConfig config, RecordStoreOpener opener) {
            super(config, opener);
        }

        @Override
        protected RecordStore.Ordering numberedOrdering() {
            return RecordStore.Ordering.ARRIVAL;
        }
    }

    static FarReachProtocol serversIgnoringSequenceNumbers(FarReachProtocol p) {
        return p.withServers(ServerIgnoringSequenceNumbers::new);
    }

    /**
     * Servers keep records in memory only: they acknowledge writes that a crash then loses (the live
     * harness's {@code volatile-store}). The rack's RocksDB directories are simply not used.
     */
    static FarReachProtocol serversWithVolatileStores(FarReachProtocol p) {
        return p.withServers((config, opener) -> new FarReachServer(config, RecordStoreOpener.memory()));
    }

    /**
     * farreach.p4 numbering every copy of a write as a new write (FR-14 removed: a retry or a duplicate
     * gets a fresh sequence number, so it can overwrite a newer write after its first copy was applied).
     * Written under target/; the rack compiles it with p4/ on the include path.
     */
    static Path farReachNumberingEveryCopyAnew() throws IOException {
        Path real = RackRuns.root().resolve("p4/farreach.p4");
        String source = Files.readString(real);
        String copyTest = "if (hdr.innet.req_id == last_req_id) {";
        if (source.indexOf(copyTest) < 0 || source.indexOf(copyTest) != source.lastIndexOf(copyTest)) {
            throw new IllegalStateException("farreach.p4 no longer has exactly one '" + copyTest + "'; update this seeded bug");
        }
        Path variant = Path.of("target", "bug-copies-renumbered.p4").toAbsolutePath();
        Files.createDirectories(variant.getParent());
        Files.writeString(variant, source.replace(copyTest, "if (false) { /* seeded bug: copies numbered anew */"));
        return variant;
    }

    /** Recovery replays only the snapshot, not the records clients preserved (§3.4). */
    static FarReachProtocol recoveryIgnoringPreservedRecords(FarReachProtocol p) {
        return p.withControllers((config, settings, handle, hooks) -> new FarReachController(config, settings, handle, hooks) {
            @Override
            protected Recover newRecover(boolean resumeAtCollection) {
                return new Recover(this, resumeAtCollection) {
                    @Override
                    protected void keepPreserved(CachedRecord r) {
                        // seeded bug: the client's copy is dropped
                    }
                };
            }
        });
    }

    /** Recovery gives up on clients silent for 5 ms and goes on without their preserved records. */
    static FarReachProtocol recoveryGivingUpOnSilentClients(FarReachProtocol p) {
        return p.withControllers((config, settings, handle, hooks) -> new FarReachController(config, settings, handle, hooks) {
            @Override
            protected Recover newRecover(boolean resumeAtCollection) {
                return new Recover(this, resumeAtCollection) {
                    @Override
                    protected boolean proceedWithoutSilentClients(long waitedNanos) {
                        return waitedNanos > 5_000_000; // seeded bug: silence taken for a crash
                    }
                };
            }
        });
    }

    /**
     * A restarted switch keeps its sequence counters at 0 (new writes look older than stored ones), and the
     * servers are not fenced (with the fence they would refuse those writes unacknowledged instead).
     */
    static FarReachProtocol recoveryLeavingCountersAtZero(FarReachProtocol p) {
        return p.withControllers((config, settings, handle, hooks) -> new FarReachController(config, settings, handle, hooks) {
            @Override
            protected Recover newRecover(boolean resumeAtCollection) {
                return new Recover(this, resumeAtCollection) {
                    @Override
                    protected void raiseSequenceCounters(SwitchControl c, long floor) {
                        // seeded bug: counters stay where the restart left them
                    }

                    @Override
                    protected long fenceBase() {
                        return 0; // the same bug forgets the base for the fence too: no fence
                    }
                };
            }
        });
    }

    /** Snapshots take the records changed since the snapshot point as they are now, ignoring the originals. */
    static FarReachProtocol snapshotsWithoutFirstWriteOriginals(FarReachProtocol p) {
        return p.withControllers((config, settings, handle, hooks) -> new SnapshotIgnoringOriginals(config, settings,
                handle, hooks));
    }

    private static final class SnapshotIgnoringOriginals extends FarReachController {
        SnapshotIgnoringOriginals(CacheControllerConfig config, FarReachSettings settings, SwitchHandle handle,
                ControllerHooks hooks) {
            super(config, settings, handle, hooks);
        }

        @Override
        protected Snap newSnap() {
            return new Snap(this) {
                @Override
                protected Map<String, CachedRecord> changedRecords(SwitchControl c) {
                    Map<String, CachedRecord> now = new TreeMap<>();
                    for (int index : directory().indices()) {
                        byte[] key = directory().keyAt(index);
                        String k = HexFormat.of().formatHex(key);
                        if (awaitingOriginal.contains(k)) {
                            now.put(k, new CachedRecord(key, FarReachController.readRecord(c, index)));
                        }
                    }
                    return now;
                }
            };
        }
    }

}
