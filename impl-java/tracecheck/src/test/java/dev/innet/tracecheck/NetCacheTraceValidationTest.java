package dev.innet.tracecheck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.innet.kv.cache.CacheControllerConfig;
import dev.innet.kv.server.ServerConfig;
import dev.innet.kv.store.RecordStore;
import dev.innet.kv.store.RecordStoreOpener;
import dev.innet.netcache.NetCacheController;
import dev.innet.netcache.NetCacheProtocol;
import dev.innet.netcache.NetCacheServer;
import dev.innet.rack.Rack;
import dev.innet.rack.RackRuns;
import dev.innet.switchapi.SwitchControl;
import dev.innet.switchapi.SwitchHandle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * NetCache trace validation end to end: small rack runs (2 servers, 3 clients, 3 keys, cache 1 so that
 * keys are admitted and evicted, 1.5 ms of the campaign's lossy, duplicating, reordering switch-server
 * links) are converted and checked by TLC against specs/netcache/NetCacheTrace.tla. The real protocol is
 * accepted, with and without a switch restart, and with deletes; two seeded bugs are rejected at the event
 * where the run leaves the spec.
 */
class NetCacheTraceValidationTest {
    private static final Path SPECS = Path.of(System.getProperty("innet.root", "../.."), "specs", "netcache");
    private static final int CACHE = 1;
    private static final long CHAOS = 1_500_000;
    /** The runs that predate delete support stay without deletes, so their figures stay comparable. */
    private static final double NO_DELETES = 0;
    /**
     * Four times the campaign's 5% of deletes, with cache 2: enough deletes of cached keys followed by reads
     * that the run would be rejected if the trace spec let a delete stage its record or a NOT_FOUND
     * GET_FOR_CACHE reply refill the cache (both checked by hand on this run; with 5% and cache 1 neither
     * mistake showed in seeds 1-8).
     */
    private static final double DELETES = 0.2;
    private static final int DELETES_CACHE = 2;

    /** Seeded bug (test-only): numbered writes are applied in arrival order, as if seqs did not exist. */
    static final class ServerIgnoringSequenceNumbers extends NetCacheServer {
        ServerIgnoringSequenceNumbers(ServerConfig config, RecordStoreOpener opener) {
            super(config, opener);
        }

        @Override
        protected RecordStore.Ordering numberedOrdering() {
            return RecordStore.Ordering.ARRIVAL;
        }
    }

    /** Seeded bug (test-only): a restarted switch numbers writes from 0 again (NetCache.tla F1, before the fix). */
    static final class ControllerWithoutSequenceBase extends NetCacheController {
        ControllerWithoutSequenceBase(CacheControllerConfig config, SwitchHandle handle) {
            super(config, handle);
        }

        @Override
        protected long raiseSequenceCounters(SwitchControl control, long base) {
            return 0;
        }
    }

    private record Validated(Rack rack, TraceValidator.Result result, String trace) {}

    private static Validated validate(NetCacheProtocol protocol, long seed, boolean restart, String name) throws Exception {
        return validate(protocol, seed, restart, NO_DELETES, CACHE, name);
    }

    private static Validated validate(NetCacheProtocol protocol, long seed, boolean restart, double deletes, int cache,
            String name) throws Exception {
        Path work = Path.of("target", "trace-validation", "netcache-" + name);
        Path ndjson = work.resolve("run.ndjson");
        Rack rack = TraceRuns.small(CHAOS, deletes).withRack(2, 3, cache).rack(RackRuns.root(), protocol, seed)
                .recordTraceEvents(true).out(RackRuns.QUIET).build();
        if (restart) {
            rack.crashSwitch(CHAOS / 2, CHAOS / 2 + 100_000);
        }
        rack.run();
        rack.simulation().writeTraceEvents(ndjson);
        TraceValidator.Result r = new TraceValidator(new NetCacheTraceConversion(), SPECS, work.resolve("tlc"),
                Duration.ofSeconds(120), TraceSettings.rack(cache)).validate(ndjson);
        System.out.println("netcache " + name + ": " + r.summary());
        return new Validated(rack, r, Files.readString(ndjson));
    }

    @Test
    void aCleanRunWithHitsEvictionsAndLateRepliesIsAccepted() throws Exception {
        Validated v = validate(new NetCacheProtocol(), 2, false, "clean-seed2");
        assertEquals(TraceValidator.Verdict.ACCEPTED, v.result().verdict(), v.result().summary());
        assertTrue(v.result().events() > 100, "a run too small to mean anything: " + v.result().summary());
        assertTrue(v.trace().contains("\"event\":\"evict\""), "no eviction validated");
        assertTrue(v.trace().contains("\"fromSwitch\":true"), "no cache hit validated");
        assertTrue(v.trace().contains("\"event\":\"clientStaleReply\""), "no late or duplicated reply validated");
    }

    @Test
    void aRunWithDeletesIsAccepted() throws Exception {
        Validated v = validate(new NetCacheProtocol(), 2, false, DELETES, DELETES_CACHE, "deletes-seed2");
        assertEquals(TraceValidator.Verdict.ACCEPTED, v.result().verdict(), v.result().summary());
        assertTrue(v.trace().contains("\"delete\":true"), "no delete validated");
        assertTrue(v.trace().lines().anyMatch(l -> l.contains("\"op\":\"GET_FOR_CACHE\"") && l.contains("\"replyDeleted\":true")
                && !l.contains("\"replySeq\":0,")), "no NOT_FOUND refill attempt with a deleted record validated");
    }

    @Test
    void aRunWithASwitchRestartIsAccepted() throws Exception {
        Validated v = validate(new NetCacheProtocol(), 2, true, "restart-seed2");
        assertEquals(TraceValidator.Verdict.ACCEPTED, v.result().verdict(), v.result().summary());
        assertTrue(v.trace().contains("\"bringUp\":2"), "the switch did not restart");
    }

    @Test
    void serversIgnoringSequenceNumbersAreRejectedAtAServerPut() throws Exception {
        Validated v = validate(new NetCacheProtocol().withServers(ServerIgnoringSequenceNumbers::new), 3, false,
                "server-ignores-seq");
        assertEquals(TraceValidator.Verdict.REJECTED, v.result().verdict(), v.result().summary());
        assertTrue(v.result().failedDescription().startsWith("e=serverPut"), v.result().summary());
    }

    @Test
    void aRestartWithoutTheSequenceBaseIsRejectedAtAWriteAfterIt() throws Exception {
        Validated v = validate(new NetCacheProtocol().withControllers(ControllerWithoutSequenceBase::new), 2, true,
                "restart-without-base");
        assertEquals(TraceValidator.Verdict.REJECTED, v.result().verdict(), v.result().summary());
        assertTrue(v.result().failedDescription().startsWith("e=write"), v.result().summary());
        long restartLine = v.trace().lines().takeWhile(l -> !l.contains("\"bringUp\":2")).count() + 1;
        assertTrue(v.result().failedLine() > restartLine, "rejected before the restart (line " + restartLine + "): "
                + v.result().summary());
    }
}
