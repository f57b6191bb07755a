package dev.innet.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.innet.conformance.ConformanceSuite;
import dev.innet.conformance.P4Mutants;
import dev.innet.conformance.P4simReplayTarget;
import dev.innet.conformance.Replayer;
import dev.innet.conformance.SpecTraces;
import dev.innet.protocol.spec.ReplayTarget;
import dev.innet.protocol.spec.SpecConformance;
import dev.innet.protocol.spec.SpecReplay;
import dev.innet.protocol.spec.SpecStep;
import dev.innet.rack.RackRuns;
import dev.innet.tracegen.TlcModel;
import dev.innet.tracegen.TlcSimulation;
import dev.innet.tracegen.TraceCase;
import dev.innet.visibility.controller.Resync;
import dev.innet.visibility.controller.VisibilitySwitchOs;
import dev.innet.visibility.datanode.DataNode;
import dev.innet.visibility.datanode.LogEntry;
import dev.innet.visibility.spec.VisibilityConformance;
import dev.innet.visibility.spec.VisibilityReplay;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Visibility.tla's behaviours replayed step by step on p4/visibility.p4 and the visibility nodes
 * (docs/conformance.md, "Visibility"): curated and simulated behaviours pass to their end; a corrupted
 * trace and three seeded implementation bugs (one in the P4 program, two in Java nodes) fail at the step
 * that shows them, naming the spec variable.
 */
class VisibilityConformTest {
    private static final Path ROOT = RackRuns.root();
    private static final Path CURATED = ROOT.resolve("conformance/visibility");
    /** visibility.p4 compiled once for every replay of this class. */
    private static final Supplier<ReplayTarget> VISIBILITY =
            P4simReplayTarget.factory(ROOT, ROOT.resolve("p4/visibility.p4"), 1);

    @TempDir
    Path tmp;

    private static List<SpecStep> curated(String name) throws Exception {
        return SpecTraces.fromTraceCase(TraceCase.read(CURATED.resolve(name)));
    }

    private static Replayer.Result replay(List<SpecStep> trace) {
        return Replayer.replay(new VisibilityConformance(), VISIBILITY, trace);
    }

    /** The replay with other nodes (a seeded bug) on the real switch program. */
    private static SpecConformance withNodes(VisibilityReplay.Nodes nodes) {
        VisibilityConformance real = new VisibilityConformance();
        return new SpecConformance() {
            @Override
            public String spec() {
                return real.spec();
            }

            @Override
            public List<String> conformanceModels() {
                return real.conformanceModels();
            }

            @Override
            public SpecReplay newReplay(ReplayTarget target) {
                return new VisibilityReplay(target, nodes);
            }
        };
    }

    /** The first step (after the initial state) taking {@code action} that {@code also} accepts. */
    private static int firstStep(List<SpecStep> trace, String action, Predicate<SpecStep> also) {
        for (int i = 1; i < trace.size(); i++) {
            if (trace.get(i).actionName().equals(action) && also.test(trace.get(i))) {
                return i;
            }
        }
        throw new AssertionError("the trace never takes " + action + " as wanted");
    }

    private static String outcome(SpecStep s) {
        return (String) s.action().get("name");
    }

    @Test
    void everyCuratedTraceReplaysToItsEnd() throws Exception {
        int passed = 0;
        for (Path file : ConformanceSuite.traceFiles(CURATED)) {
            List<SpecStep> trace = SpecTraces.fromTraceCase(TraceCase.read(file));
            Replayer.Result r = replay(trace);
            assertInstanceOf(Replayer.Result.Passed.class, r, file + ": " + r);
            assertEquals(trace.size(), r.steps(), file.toString());
            passed++;
        }
        assertTrue(passed >= 4, "the curated traces: " + passed);
    }

    /** Behaviours TLC simulates on the model with losses and every kind of timeout replay to their end. */
    @Test
    void simulatedBehavioursReplayStepForStep() throws Exception {
        TlcSimulation.Result sim = TlcSimulation.run(new TlcModel(ROOT.resolve("specs/visibility"), "MCVisibility"), ROOT,
                6, 40, 5, tmp.resolve("tlc"), Duration.ofMinutes(5));
        assertEquals(6, sim.cases().size());
        for (TraceCase c : sim.cases()) {
            List<SpecStep> trace = SpecTraces.fromTraceCase(c);
            Replayer.Result r = replay(trace);
            assertInstanceOf(Replayer.Result.Passed.class, r, r.toString());
            assertEquals(trace.size(), r.steps());
        }
    }

    /** A spec state the implementation cannot reach (MaxTs off by 5 after a write reply) fails at that step. */
    @Test
    void aCorruptedTraceFailsAtTheCorruptedStepNamingTheVariable() throws Exception {
        List<SpecStep> trace = new ArrayList<>(curated("colliding-read-stale-repair.trace"));
        int step = firstStep(trace, "SwWriteReply", s -> true);
        SpecStep original = trace.get(step);
        Map<String, Object> vars = new LinkedHashMap<>(original.vars());
        long maxTs = (Long) ((List<?>) vars.get("maxTs")).get(0);
        vars.put("maxTs", List.of(maxTs + 5));
        trace.set(step, new SpecStep(original.action(), vars));
        Replayer.Result.Failed f = assertInstanceOf(Replayer.Result.Failed.class, replay(trace));
        assertEquals(step, f.step(), f.toString());
        assertEquals("maxTs", f.variable(), f.toString());
        assertEquals(List.of(maxTs + 5), f.expected());
        assertEquals(List.of(maxTs), f.actual());
    }

    /**
     * A seeded P4 bug, the spec's BugMaxTsInstallOnly: W1 is dropped and MaxTs is raised only when W2
     * installs. A write reply that falls back (its entry busy) then leaves MaxTs below its timestamp,
     * which the replay sees at the first fallback. The trace runs on a copy of p4/ with the change.
     */
    @Test
    void aSwitchThatRaisesMaxTsOnlyWhenItInstallsFailsAtTheFirstFallback() throws Exception {
        Map<String, String> changes = new LinkedHashMap<>();
        changes.put("vis_max_ts.write(i, ts > max_ts ? ts : max_ts);", "/* seeded bug: W1 removed */");
        changes.put("vis_valid.write(i, 1);",
                "vis_valid.write(i, 1); vis_max_ts.write(i, ts); /* seeded bug: MaxTs raised only here */");
        Path program = P4Mutants.copyWithChanges(ROOT, tmp, "visibility.p4", changes);
        List<SpecStep> trace = curated("colliding-read-stale-repair.trace");
        Replayer.Result r = Replayer.replay(new VisibilityConformance(), () -> new P4simReplayTarget(tmp, program, 1), trace);
        Replayer.Result.Failed f = assertInstanceOf(Replayer.Result.Failed.class, r, r.toString());
        assertEquals(firstStep(trace, "SwWriteReply", s -> outcome(s).equals("SwFallback")), f.step(), f.toString());
        assertEquals("maxTs", f.variable(), f.toString());
    }

    /**
     * A seeded switch-OS bug, the spec's BugResyncNoMaxTs: the resynchronisation after a switch crash
     * leaves MaxTs at 0 instead of reloading it from the data node's timestamp sources. The replay
     * fails at SwResync, on maxTs.
     */
    @Test
    void aResyncThatDoesNotReloadMaxTsFailsAtTheResync() throws Exception {
        VisibilitySwitchOs.ResyncFactory noReload = (ctx, timers, roles, control, round, onDone) ->
                new Resync(ctx, timers, roles, control, round, onDone) {
                    @Override
                    protected boolean reloadsMaxTs() {
                        return false;
                    }
                };
        VisibilityReplay.Nodes buggy = new VisibilityReplay.Nodes(VisibilityReplay.Nodes.REAL.dataNodes(),
                VisibilityReplay.Nodes.REAL.metadataNodes(), noReload);
        List<SpecStep> trace = curated("switch-crash-resync-reloads-maxts.trace");
        assertInstanceOf(Replayer.Result.Passed.class, replay(trace));
        Replayer.Result r = Replayer.replay(withNodes(buggy), VISIBILITY, trace);
        Replayer.Result.Failed f = assertInstanceOf(Replayer.Result.Failed.class, r, r.toString());
        assertEquals(firstStep(trace, "SwResync", s -> true), f.step(), f.toString());
        assertEquals("maxTs", f.variable(), f.toString());
    }

    /**
     * A seeded data-node bug, the spec's BugNoValidate: the data node serves a DATA_READ without checking
     * the key in the log entry, so a read that followed a colliding key's switch entry gets that key's
     * value instead of KEY_MISMATCH. The replay fails at that DnRead, on the message it sends (net).
     */
    @Test
    void aDataNodeThatSkipsKeyValidationFailsAtTheCollidingRead() throws Exception {
        VisibilityReplay.Nodes buggy = new VisibilityReplay.Nodes(roles -> new DataNode(roles) {
            @Override
            protected boolean validates(LogEntry entry, byte[] queriedKey) {
                return true;
            }
        }, VisibilityReplay.Nodes.REAL.metadataNodes(), VisibilityReplay.Nodes.REAL.resyncs());
        List<SpecStep> trace = curated("colliding-read-stale-repair.trace");
        Replayer.Result r = Replayer.replay(withNodes(buggy), VISIBILITY, trace);
        Replayer.Result.Failed f = assertInstanceOf(Replayer.Result.Failed.class, r, r.toString());
        assertEquals(firstStep(trace, "DnRead", s -> Boolean.FALSE.equals(((List<?>) s.action().get("args")).get(2))),
                f.step(), f.toString());
        assertEquals("net", f.variable(), f.toString());
    }
}
