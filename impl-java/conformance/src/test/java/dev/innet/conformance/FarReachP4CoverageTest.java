package dev.innet.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.innet.farreach.spec.FarReachConformance;
import dev.innet.p4sim.coverage.Coverage;
import dev.innet.p4sim.coverage.CoveragePoint;
import dev.innet.protocol.spec.ReplayTarget;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Supplier;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The P4 coverage of FarReach's curated traces replayed on farreach.p4. */
class FarReachP4CoverageTest {
    private static Coverage coverage;
    private static P4Coverage collector;

    @BeforeAll
    static void replayTheCuratedTraces() throws Exception {
        Path root = FarReachReplayTest.root();
        collector = new P4Coverage();
        Supplier<ReplayTarget> target = P4simReplayTarget.factory(root, root.resolve("p4/farreach.p4"), 1, collector);
        for (Path file : ConformanceSuite.traceFiles(root.resolve("conformance/farreach"))) {
            Replayer.replay(new FarReachConformance(), target,
                    SpecTraces.fromTraceCase(dev.innet.tracegen.TraceCase.read(file)));
        }
        coverage = collector.total(root);
    }

    /** The points of farreach.p4 whose source line starts with {@code text}, for one outcome. */
    private static CoveragePoint point(String text, String outcome) {
        return coverage.points().stream()
                .filter(p -> p.file().equals("p4/farreach.p4") && p.text().startsWith(text) && p.outcome().equals(outcome))
                .findFirst().orElseThrow(() -> new AssertionError("no point '" + text + "' " + outcome));
    }

    @Test
    void theCuratedWritesHitTheCacheThroughItsWriteGuard() {
        // §3.2 write-back: a write to a cached record not being evicted is absorbed by the switch
        CoveragePoint writeHit = point("if (evicting == 0 && (!is_put || meta.value_parsed))", "true");
        assertTrue(writeHit.registerGuard(), "the condition reads record_evicting");
        assertTrue(coverage.count(writeHit.key()) > 0, writeHit.describe());
        CoveragePoint validRecord = point("if (valid == 1)", "true");
        assertTrue(coverage.count(validRecord.key()) > 0, validRecord.describe());
        assertTrue(coverage.points().stream().anyMatch(p -> p.name().equals("MyIngress.answer_write")
                && coverage.count(p.key()) > 0), "answer_write ran");
    }

    @Test
    void whatNoCuratedTraceDoesIsReportedAsNeverExercised() {
        // the replay never configures sampling (sample_mask stays 0), so no random draw is made
        CoveragePoint draw = coverage.points().stream().filter(p -> p.name().equals("MyIngress.draw_sample"))
                .findFirst().orElseThrow();
        assertEquals(0, coverage.count(draw.key()));
        assertTrue(coverage.unexercised().contains(draw));
        // the recovery gate's drop: only a switch crash and recovery reach it, and the curated traces stop there
        CoveragePoint recoveringDrop = point("if (gate == 1)", "true");
        assertTrue(recoveringDrop.registerGuard());
        assertTrue(coverage.unexercised().contains(recoveringDrop), recoveringDrop.describe());
    }

    @Test
    void theReportPrintsTheSummaryAndTheNeverExercisedPointsAndWritesEveryCount(@TempDir Path out) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        Coverage reported = collector.report(FarReachReplayTest.root(), out, new PrintStream(bytes, true, StandardCharsets.UTF_8));
        String text = bytes.toString(StandardCharsets.UTF_8);
        assertTrue(text.contains("P4 coverage: " + coverage.summary()), text);
        assertTrue(text.contains("p4/include/ingress_cache.p4:") && text.contains("action  MyIngress.draw_sample run"), text);
        String json = Files.readString(out.resolve(P4Coverage.JSON_FILE));
        assertEquals(reported.points().size(), json.split("\"count\"").length - 1);
        assertTrue(collector.switches() >= 9, "one switch per curated trace at least: " + collector.switches());
    }
}
