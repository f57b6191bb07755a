package dev.innet.lake.spec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.innet.conformance.ConformanceSuite;
import dev.innet.conformance.P4Mutant;
import dev.innet.conformance.P4simReplayTarget;
import dev.innet.conformance.Replayer;
import dev.innet.conformance.SpecTraces;
import dev.innet.lake.controller.LakeSwitchOs;
import dev.innet.protocol.ForwardingSwitchOs;
import dev.innet.protocol.spec.ReplayTarget;
import dev.innet.protocol.spec.SpecReplay;
import dev.innet.protocol.spec.SpecStep;
import dev.innet.switchapi.SwitchControl;
import dev.innet.tracegen.TlcModel;
import dev.innet.tracegen.TlcSimulation;
import dev.innet.tracegen.TraceCase;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.IntPredicate;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Lake.tla's behaviours replayed step by step on lake.p4 (p4sim), the simulator's memcached, LaKe clients and the switch OS. */
class LakeReplayTest {
    private static final Path ROOT = Path.of(System.getProperty("innet.root")).toAbsolutePath().normalize();
    /** lake.p4 compiled once for every replay of this class. */
    private static final Supplier<ReplayTarget> LAKE = P4simReplayTarget.factory(ROOT, ROOT.resolve("p4/lake.p4"), 1);

    @TempDir
    Path tmp;

    private static List<SpecStep> curated(String name) throws Exception {
        return SpecTraces.fromTraceCase(TraceCase.read(ROOT.resolve("conformance/lake").resolve(name)));
    }

    private static Replayer.Result replay(List<SpecStep> trace) {
        return Replayer.replay(new LakeConformance(), LAKE, trace);
    }

    /** The index of the first step taking {@code action} (act.a, or act.via where the spec has it) that {@code also} accepts. */
    private static int firstStep(List<SpecStep> trace, String action, IntPredicate also) {
        for (int i = 1; i < trace.size(); i++) {
            SpecStep s = trace.get(i);
            boolean named = s.actionName().equals(action) || action.equals(s.action().get("via"));
            if (named && also.test(i)) {
                return i;
            }
        }
        throw new AssertionError("the trace never takes " + action + " as wanted");
    }

    @Test
    void everyCuratedTracePasses() throws Exception {
        int passed = 0;
        for (Path file : ConformanceSuite.traceFiles(ROOT.resolve("conformance/lake"))) {
            List<SpecStep> trace = SpecTraces.fromTraceCase(TraceCase.read(file));
            Replayer.Result r = replay(trace);
            assertInstanceOf(Replayer.Result.Passed.class, r, file + ": " + r);
            assertEquals(trace.size(), r.steps());
            passed++;
        }
        assertEquals(5, passed, "the five curated traces");
    }

    /** Behaviours TLC simulates from the conformance model (every fault of the spec) replay to their end. */
    @Test
    void simulatedBehavioursOfTheConformanceModelReplayStepForStep() throws Exception {
        List<TraceCase> cases = TlcSimulation.run(new TlcModel(ROOT.resolve("specs/lake"), "MCLakeConform"), ROOT, 6,
                40, 5, tmp.resolve("gen"), Duration.ofMinutes(5)).cases();
        assertEquals(6, cases.size());
        for (TraceCase c : cases) {
            List<SpecStep> trace = SpecTraces.fromTraceCase(c);
            Replayer.Result r = replay(trace);
            assertInstanceOf(Replayer.Result.Passed.class, r, r.toString());
            assertEquals(trace.size(), r.steps());
        }
    }

    @Test
    void aCorruptedTraceFailsAtTheCorruptedStepNamingTheVariableAndBothValues() throws Exception {
        List<SpecStep> trace = new ArrayList<>(curated("stale-set-reply-fenced.trace"));
        int at = firstStep(trace, "HostSet", i -> true);
        SpecStep real = trace.get(at);
        Map<String, Object> vars = new LinkedHashMap<>(real.vars());
        vars.put("casCtr", 9L); // memcached never counts 9 modifications in this trace
        trace.set(at, new SpecStep(real.action(), vars));
        Replayer.Result.Failed f = assertInstanceOf(Replayer.Result.Failed.class, replay(trace));
        assertEquals(at, f.step(), f.toString());
        assertEquals("HostSet", f.action());
        assertEquals("casCtr", f.variable());
        assertEquals(9L, f.expected());
        assertTrue(!f.actual().equals(9L), f.toString());
    }

    /**
     * A seeded bug in the switch OS: every device's tag counter is seeded with the first generation's
     * base (a test-only switch OS: LakeSwitchOs with {@code tagBase(1)} for {@code tagBase(generation)}),
     * so after a reset tags repeat those of before it. The replay fails at the reset, where the spec's
     * serial carries on.
     */
    @Test
    void aSwitchOsThatReseedsTheFirstTagsAfterAResetFailsAtTheReset() throws Exception {
        List<SpecStep> trace = curated("reset-drops-old-reply.trace");
        Function<ReplayTarget, SpecReplay> buggy = target -> new LakeReplay(target,
                (hosts, handle, poll) -> new ForwardingSwitchOs(hosts, handle, poll) {
                    @Override
                    protected void beforeForwarding(SwitchControl control, int generation) {
                        control.registerWrite(LakeSwitchOs.TAG_COUNTER, 0, LakeSwitchOs.tagBase(1)); // seeded bug
                    }
                });
        Replayer.Result r = Replayer.replay(new LakeConformance(buggy), LAKE, trace);
        Replayer.Result.Failed f = assertInstanceOf(Replayer.Result.Failed.class, r, r.toString());
        assertEquals(firstStep(trace, "Reset", i -> true), f.step(), f.toString());
        assertEquals("serial", f.variable());
    }

    /**
     * A seeded bug in the data plane: the first layer's fill ignores the fence (the spec's
     * BugFillUnguarded, in a copy of p4/). The older SET's late reply overwrites the newer value, and the
     * replay fails at that reply, variable cache.
     */
    @Test
    void aDataPlaneWhoseFillIgnoresTheFenceFailsAtTheStaleReply() throws Exception {
        Path program = P4Mutant.of(ROOT, tmp, "lake.p4",
                "l1_key.read(key, meta.l1_slot);\n                if (has_value && tag > fence) {",
                "l1_key.read(key, meta.l1_slot);\n                if (has_value) { /* seeded bug */");
        List<SpecStep> trace = curated("stale-set-reply-fenced.trace");
        Replayer.Result r = Replayer.replay(new LakeConformance(), () -> new P4simReplayTarget(tmp, program, 1), trace);
        Replayer.Result.Failed f = assertInstanceOf(Replayer.Result.Failed.class, r, r.toString());
        int stale = firstStep(trace, "FillFromSet", i -> i > firstStep(trace, "FillFromSet", j -> true));
        assertEquals(stale, f.step(), f.toString());
        assertEquals("cache", f.variable());
    }
}
