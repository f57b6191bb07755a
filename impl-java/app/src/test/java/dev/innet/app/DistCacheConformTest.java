package dev.innet.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.innet.cli.Cli;
import dev.innet.conformance.P4simReplayTarget;
import dev.innet.conformance.Replayer;
import dev.innet.conformance.SpecTraces;
import dev.innet.distcache.server.DistCacheServer;
import dev.innet.distcache.spec.DistCacheConformance;
import dev.innet.distcache.spec.DistCacheReplay;
import dev.innet.protocol.spec.ReplayTarget;
import dev.innet.protocol.spec.SpecConformance;
import dev.innet.protocol.spec.SpecReplay;
import dev.innet.protocol.spec.SpecStep;
import dev.innet.protocol.spec.SpecStep.ModelValue;
import dev.innet.protocol.spec.SpecStep.TlaFunction;
import dev.innet.rack.RackRuns;
import dev.innet.tracegen.TraceCase;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * DistCache's spec replay (docs/conformance.md, "DistCache"): simulated behaviours and the curated traces
 * replay step for step on several p4sim switches and the real hosts; a corrupted trace fails at the
 * corrupted step naming the variable; seeded implementation bugs (P4 mutants, a server bug) fail at the
 * step where the spec and the buggy implementation part.
 */
class DistCacheConformTest {
    private static final Path ROOT = RackRuns.root();
    private static final Path CURATED = ROOT.resolve("conformance/distcache");

    @TempDir
    Path out;

    private String conform(int expectedCode, String... args) {
        System.setProperty("innet.root", ROOT.toString());
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        List<String> all = new ArrayList<>(List.of("--protocol", "distcache"));
        all.addAll(List.of(args));
        all.addAll(List.of("--out", out.toString()));
        PrintStream previous = System.out;
        int code;
        try {
            System.setOut(new PrintStream(bytes, true, StandardCharsets.UTF_8));
            code = Cli.run("innet conform", new ConformMain(), all.toArray(String[]::new), System.out, System.err);
        } finally {
            System.setOut(previous);
        }
        String text = bytes.toString(StandardCharsets.UTF_8);
        assertEquals(expectedCode, code, text);
        return text;
    }

    private static List<SpecStep> curated(String name) throws Exception {
        return SpecTraces.fromTraceCase(TraceCase.read(CURATED.resolve(name)));
    }

    private static Supplier<ReplayTarget> switches(Path program) {
        return P4simReplayTarget.factory(ROOT, program, 1);
    }

    @Test
    void curatedTracesAndSimulatedBehavioursReplayStepForStep() {
        String r = conform(0, "--simulate", "3", "--seed", "1", "--model", "MCDistCacheLoss", "MCDistCacheRefetch",
                "MCDistCacheRandom");
        // 4 curated + 3 behaviours of each model, every one to its end, on 4 or 5 switches each; the agent's
        // re-fill (CacheRefetch) only in MCDistCacheRefetch
        assertTrue(r.contains("13 traces: 13 passed, 0 failed, 0 not fully replayed"), r);
        assertTrue(r.contains("spec actions replayed: 16 of 16"), r);
        assertTrue(r.contains("P4 coverage: tables "), r);
    }

    @Test
    void aCorruptedTraceFailsAtTheCorruptedStepNamingTheVariable() throws Exception {
        List<SpecStep> trace = new ArrayList<>(curated("crash-old-fill-refused.trace"));
        assertEquals("CacheInsert", trace.get(8).actionName());
        // step 8 inserts k1 at the leaf with token 2; the corrupted spec state says token 7
        SpecStep s = trace.get(8);
        Map<String, Object> vars = new LinkedHashMap<>(s.vars());
        @SuppressWarnings("unchecked")
        Map<String, Object> tok = new LinkedHashMap<>((Map<String, Object>) vars.get("tok"));
        tok.put("leaf", new TlaFunction(Map.of(new ModelValue("k1"), 7L)));
        vars.put("tok", tok);
        trace.set(8, new SpecStep(s.action(), vars));
        Replayer.Result r = Replayer.replay(new DistCacheConformance(), switches(ROOT.resolve("p4/distcache.p4")), trace);
        Replayer.Result.Failed f = assertInstanceOf(Replayer.Result.Failed.class, r, r.toString());
        assertEquals(8, f.step(), f.toString());
        assertEquals("tok", f.variable(), f.toString());
    }

    /** A copy of p4/distcache.p4 with one rule of DC-8 removed, next to the original so its includes resolve. */
    private Path mutant(String remove) throws Exception {
        String text = Files.readString(ROOT.resolve("p4/distcache.p4"));
        String mutated = text.replace(remove, "");
        assertNotEquals(text, mutated, "the mutation must change the program");
        Path copy = out.resolve("distcache-mutant.p4");
        Files.writeString(copy, mutated);
        return copy;
    }

    /** The curated trace replayed on the mutant without {@code remove}: it must fail. */
    private Replayer.Result.Failed failsWithout(String remove, String trace) throws Exception {
        Replayer.Result r = Replayer.replay(new DistCacheConformance(), switches(mutant(remove)), curated(trace));
        return assertInstanceOf(Replayer.Result.Failed.class, r, r.toString());
    }

    @Test
    void aCopyWithoutTheInsertionTokenCheckTakesTheOldFillAndFailsThere() throws Exception {
        Replayer.Result.Failed f = failsWithout(" && hdr.dc.token == waiting", "crash-old-fill-refused.trace");
        // the first update the token alone refuses: a phase-2 update reaching the re-inserted copy
        assertEquals(11, f.step(), f.toString());
        assertEquals("CacheUpdateRefused", f.action(), f.toString());
        assertTrue(f.message().contains("1 taken"), f.message());
    }

    @Test
    void aCopyWithoutTheVersionGuardTakesAFillOlderThanAnInvalidation() throws Exception {
        Replayer.Result.Failed f = failsWithout(" && hdr.innet.seq >= seen", "fill-behind-duplicated-invalidation.trace");
        // the fill of version 0 arrives after the invalidation of version 1 (seen = 1)
        assertEquals(7, f.step(), f.toString());
        assertEquals("CacheUpdateRefused", f.action(), f.toString());
    }

    /** DistCache's conformance with the servers {@code servers} builds (a seeded server bug). */
    private static SpecConformance withServers(DistCacheReplay.ServerFactory servers) {
        return new SpecConformance() {
            @Override
            public String spec() {
                return "specs/distcache/DistCache.tla";
            }

            @Override
            public List<String> conformanceModels() {
                return List.of();
            }

            @Override
            public SpecReplay newReplay(ReplayTarget target) {
                return new DistCacheReplay(target, servers);
            }
        };
    }

    @Test
    void aServerThatUpdatesTheCopiesWithItsInvalidationsFailsAtItsFirstWrite() throws Exception {
        // the spec's BugRevalidateEarly as a server bug: phase 2 goes out with phase 1
        SpecConformance early = withServers((servers, stores, resend) -> new DistCacheServer(servers, stores, resend) {
            @Override
            protected boolean updatesWithInvalidations() {
                return true;
            }
        });
        List<SpecStep> trace = curated("crash-old-fill-refused.trace");
        assertEquals("ServerWrite", trace.get(3).actionName());
        Replayer.Result r = Replayer.replay(early, switches(ROOT.resolve("p4/distcache.p4")), trace);
        Replayer.Result.Failed f = assertInstanceOf(Replayer.Result.Failed.class, r, r.toString());
        assertEquals(3, f.step(), f.toString());
        assertEquals("net", f.variable(), f.toString());
        // and the real server follows the same trace to its end
        assertInstanceOf(Replayer.Result.Passed.class,
                Replayer.replay(new DistCacheConformance(), switches(ROOT.resolve("p4/distcache.p4")), trace));
    }

    @Test
    void aSinglePhaseServerAppliesAtOnceAndFailsAtItsFirstWrite() throws Exception {
        // the spec's BugSinglePhase as a server bug: no invalidation, the write is applied and acknowledged at once
        SpecConformance single = withServers((servers, stores, resend) -> new DistCacheServer(servers, stores, resend) {
            @Override
            protected boolean invalidatesBeforeApplying() {
                return false;
            }
        });
        Replayer.Result r = Replayer.replay(single, switches(ROOT.resolve("p4/distcache.p4")),
                curated("lost-invalidation-resent.trace"));
        Replayer.Result.Failed f = assertInstanceOf(Replayer.Result.Failed.class, r, r.toString());
        assertEquals(3, f.step(), f.toString());
        assertEquals("ServerWrite", f.action(), f.toString());
        // the spec's server begins phase 1 here; this one applied the write at once
        assertTrue(f.message().contains("did not start phase 1"), f.message());
    }
}
