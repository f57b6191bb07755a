package dev.innet.distcache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.innet.distcache.trace.DistCacheTraceConversion;
import dev.innet.distcache.trace.DistCacheTraceConverter;
import dev.innet.rack.CampaignSettings;
import dev.innet.rack.Rack;
import dev.innet.rack.RackRuns;
import dev.innet.rack.workload.Workload;
import dev.innet.tracecheck.NdjsonTrace;
import dev.innet.tracecheck.TraceFormatException;
import dev.innet.tracecheck.TraceSettings;
import dev.innet.tracecheck.TraceValidator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/**
 * DistCache trace validation end to end (specs/distcache/DistCacheTrace.tla): small campaign runs on the
 * leaf-spine network (2 spines, 2 leaves, 4 servers, 4 clients, 8 keys, values of 1-160 bytes, the campaign's
 * lossy, duplicating and reordering server links and lossy client links, a spine crash and a leaf crash) are
 * converted and checked by TLC. The implementation as written is accepted; the spec's refuted variants seeded
 * as implementation bugs are rejected (or, where noted in docs/conformance.md, missed).
 */
class DistCacheTraceValidationTest {
    private static final Path SPECS = Path.of(System.getProperty("innet.root", "../.."), "specs", "distcache");
    static final long CHAOS = 4_000_000;
    static final CampaignSettings SMALL = CampaignSettings.sim().withRack(4, 4, 4).withChaosNanos(CHAOS)
            .withWorkload(new Workload(8, 0.9, 0.6, 0.05, 16, 0).withValueLengths(1, 160));

    record Validated(TraceValidator.Result result, String trace) {}

    static Validated validate(DistCacheProtocol protocol, Path program, long seed, String name) throws Exception {
        Path work = Path.of("target", "trace-validation", "distcache-" + name);
        Path ndjson = work.resolve("run.ndjson");
        Files.createDirectories(work);
        Rack.Builder b = SMALL.rack(RackRuns.root(), protocol, seed).recordTraceEvents(true).out(RackRuns.QUIET);
        if (program != null) {
            b.programSource(program);
        }
        Rack rack = b.build();
        rack.crashSwitch("spine1", CHAOS / 4, CHAOS / 4 + 500_000);
        rack.crashSwitch("leaf2", CHAOS * 5 / 8, CHAOS * 5 / 8 + 300_000);
        rack.run();
        rack.simulation().writeTraceEvents(ndjson);
        TraceValidator.Result r = new TraceValidator(new DistCacheTraceConversion(), SPECS, work.resolve("tlc"),
                Duration.ofSeconds(300), TraceSettings.rack(null)).validate(ndjson);
        System.out.println("distcache " + name + ": " + r.summary());
        return new Validated(r, Files.readString(ndjson));
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3})
    void campaignRunsAreAccepted(long seed) throws Exception {
        Validated v = validate(new DistCacheProtocol(), null, seed, "real-seed" + seed);
        assertEquals(TraceValidator.Verdict.ACCEPTED, v.result().verdict(), v.result().summary());
        assertTrue(v.trace().contains("\"event\":\"switchCrash\""), "no switch crashed");
        assertTrue(v.trace().contains("\"event\":\"dcCacheInsert\""), "no insertion");
    }

    /** The first seed in 1..3 whose run trace validation rejects, or null if every run was accepted. */
    static TraceValidator.Result firstRejection(String name, DistCacheProtocol protocol, Path program) throws Exception {
        for (long seed = 1; seed <= 3; seed++) {
            Validated v = validate(protocol, program, seed, name + "-seed" + seed);
            if (v.result().verdict() == TraceValidator.Verdict.REJECTED) {
                return v.result();
            }
            assertEquals(TraceValidator.Verdict.ACCEPTED, v.result().verdict(), v.result().summary());
        }
        return null;
    }

    @Test
    void aSinglePhaseServerIsRejectedAtItsFirstWrite() throws Exception {
        TraceValidator.Result r = firstRejection("singlephase", SeededBugs.singlePhase(), null);
        assertTrue(r != null, "not caught");
        assertTrue(r.failedDescription().startsWith("e=serverWrite"), r.summary());
    }

    @Test
    void updatesSentWithTheInvalidationsAreRejected() throws Exception {
        TraceValidator.Result r = firstRejection("revalidate-early", SeededBugs.revalidateEarly(), null);
        assertTrue(r != null, "not caught");
        assertTrue(r.failedDescription().startsWith("e=upd"), r.summary());
    }

    @Test
    void aCopyWithoutTheVersionGuardIsRejected() throws Exception {
        TraceValidator.Result r = firstRejection("noversionguard", new DistCacheProtocol(), SeededBugs.program(
                "trace-noversionguard", "&& hdr.innet.seq >= seen && hdr.dc.token == waiting", "&& hdr.dc.token == waiting"));
        assertTrue(r != null, "not caught");
    }

    @Test
    void aCopyWithoutTheFillTokenIsRejected() throws Exception {
        TraceValidator.Result r = firstRejection("nofilltoken", new DistCacheProtocol(), SeededBugs.program(
                "trace-nofilltoken", "&& hdr.innet.seq >= seen && hdr.dc.token == waiting", "&& hdr.innet.seq >= seen"));
        assertTrue(r != null, "not caught");
    }

    @Test
    void malformedEventsGiveAClearError() throws Exception {
        Path bad = Path.of("target", "trace-validation", "distcache-malformed.ndjson");
        Files.createDirectories(bad.getParent());
        String start = "{\"time\":0,\"host\":254,\"incarnation\":0,\"event\":\"dcControllerStart\",\"spines\":2,\"leaves\":2,"
                + "\"servers\":\"1,2\"}\n";
        Files.writeString(bad, start + "{\"time\":5,\"host\":0,\"incarnation\":0,\"event\":\"switchUdpIn\",\"switch\":\"spine1\","
                + "\"src\":3,\"dst\":1,\"ipId\":0,\"payload\":\"zz\"}\n");
        TraceFormatException e = assertThrows(TraceFormatException.class,
                () -> new DistCacheTraceConverter().convert(NdjsonTrace.read(bad)));
        assertTrue(e.getMessage().startsWith("line 2: not a DistCache message"), e.getMessage());
        Files.writeString(bad, start + "{\"time\":5,\"host\":1,\"incarnation\":0,\"event\":\"dcSomethingElse\"}\n");
        e = assertThrows(TraceFormatException.class, () -> new DistCacheTraceConverter().convert(NdjsonTrace.read(bad)));
        assertEquals("line 2: unknown event dcSomethingElse", e.getMessage());
        // a re-fill's end without its begin: the window in which its token write took effect is unknown
        Files.writeString(bad, start + "{\"time\":5,\"host\":254,\"incarnation\":0,\"event\":\"dcCacheRefetch\",\"node\":1,"
                + "\"layer\":1,\"key\":\"75736572300000000000000000000000\",\"token\":7}\n");
        e = assertThrows(TraceFormatException.class, () -> new DistCacheTraceConverter().convert(NdjsonTrace.read(bad)));
        assertEquals("line 2: a re-fill (token 7) whose dcCacheRefetchBegin the trace does not hold", e.getMessage());
        Files.writeString(bad, start + "{\"time\":5,\"host\":254,\"incarnation\":0,\"event\":\"dcCacheEvict\",\"node\":1,"
                + "\"layer\":1,\"key\":\"75736572300000000000000000000000\"}\n");
        e = assertThrows(TraceFormatException.class, () -> new DistCacheTraceConverter().convert(NdjsonTrace.read(bad)));
        assertEquals("line 2: an eviction whose dcCacheEvictBegin the trace does not hold", e.getMessage());
        TraceValidator.Result r = new TraceValidator(new DistCacheTraceConversion(), SPECS, bad.resolveSibling("malformed-tlc"),
                Duration.ofSeconds(10), TraceSettings.rack(null)).validate(bad);
        assertEquals(TraceValidator.Verdict.UNKNOWN, r.verdict(), r.summary());
    }
}
