package dev.innet.tracecheck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.innet.farreach.FarReachProtocol;
import dev.innet.protocol.RackPorts;
import dev.innet.rack.Rack;
import dev.innet.rack.RackRuns;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * Trace validation of what the default simulation campaign does beyond the clean runs (docs/conformance.md,
 * "Trace validation"): lossy client links with retried writes, values too long for the cache, and restarts of
 * the controller and a server. Small racks ({@link TraceRuns#simLike}) so that TLC decides each run in seconds.
 */
class RetryRestartTraceValidationTest {
    private static final Path SPECS = Path.of(System.getProperty("innet.root", "../.."), "specs", "farreach");
    private static final long CHAOS = 2_000_000;

    /** The switch line that recognises a copy of the client's last numbered write (farreach.p4, step 4). */
    static final String COPY_RULE = "if (hdr.innet.req_id == last_req_id) {";

    /**
     * Seeded bug: farreach.p4 with its copy rule disabled, so the switch numbers a retransmitted write as a new
     * write. A retry that overtakes another client's newer write then overwrites it at the server.
     */
    static Path switchNumberingEveryCopyAfresh(Path dir) throws Exception {
        Path original = RackRuns.root().resolve("p4").resolve("farreach.p4");
        String program = Files.readString(original);
        if (!program.contains(COPY_RULE)) {
            throw new IllegalStateException("farreach.p4 no longer has the line this seeded bug changes: " + COPY_RULE);
        }
        Files.createDirectories(dir);
        Path mutant = dir.resolve("farreach.p4");
        Files.writeString(mutant, program.replace(COPY_RULE, "if (hdr.innet.req_id == last_req_id && false) {"));
        return mutant;
    }

    static TraceValidator.Result validate(long seed, String name, Path programSource, Consumer<Rack> faults) throws Exception {
        Path work = Path.of("target", "trace-validation", name);
        Path ndjson = work.resolve("run.ndjson");
        TraceRuns.runSimLike(new FarReachProtocol().withSnapshotPeriodNanos(300_000), seed, CHAOS, ndjson, programSource,
                faults);
        TraceValidator.Result r = new TraceValidator(SPECS, work.resolve("tlc"), Duration.ofSeconds(120),
                FarReachTraceConverter.DEFAULT_CLIENT_LINK_NANOS, TraceRuns.CACHE_SLOTS).validate(ndjson);
        System.out.println(name + ": " + r.summary());
        return r;
    }

    private static String events(String name) throws Exception {
        return Files.readString(Path.of("target", "trace-validation", name, "run.ndjson"));
    }

    @Test
    void aRunWithRetriedWritesOnLossyClientLinksIsAccepted() throws Exception {
        TraceValidator.Result r = validate(1, "retries-seed1", null, rack -> { });
        assertEquals(TraceValidator.Verdict.ACCEPTED, r.verdict(), r.summary());
        String events = events("retries-seed1");
        assertTrue(events.matches("(?s).*\"event\":\"clientWrite\"[^\\n]*\"attempt\":2.*"), "no write was retransmitted");
        String trace = Files.readString(r.model().resolveSibling("FarReachTraceData.tla"));
        assertTrue(trace.contains("e |-> \"attempt\""), "no write copy in the converted trace");
    }

    @Test
    void aRunWhoseControllerAndServerRestartIsAccepted() throws Exception {
        int[] server = new int[1];
        TraceValidator.Result r = validate(1, "restarts-seed1", null, rack -> {
            server[0] = rack.servers().get(0);
            rack.crashHost(700_000, 1_100_000, RackPorts.CONTROLLER_HOST);
            rack.crashHost(900_000, 1_300_000, server[0]);
        });
        assertEquals(TraceValidator.Verdict.ACCEPTED, r.verdict(), r.summary());
        String events = events("restarts-seed1");
        assertTrue(events.contains("\"host\":" + RackPorts.CONTROLLER_HOST + ",\"incarnation\":1"),
                "the controller did not act after its restart");
        assertTrue(events.contains("\"host\":" + server[0] + ",\"incarnation\":1"), "the server did not act after its restart");
        String trace = Files.readString(r.model().resolveSibling("FarReachTraceData.tla"));
        assertTrue(trace.contains("e |-> \"ctlRestart\""), "no controller restart in the converted trace");
    }

    @Test
    void aSwitchNumberingEveryCopyAfreshIsRejected() throws Exception {
        Path mutant = switchNumberingEveryCopyAfresh(Path.of("target", "trace-validation", "copy-numbered-afresh-p4"));
        TraceValidator.Result r = validate(1, "copy-numbered-afresh", mutant, rack -> { });
        assertEquals(TraceValidator.Verdict.REJECTED, r.verdict(), r.summary());
        // at the copy if its seq was seen, else at the key's next write whose seq was seen: the copy's fresh
        // number left the key's counter one ahead of the spec's
        String d = r.failedDescription();
        assertTrue(d.startsWith("e=attempt") || d.startsWith("e=write") || d.startsWith("e=serverPut")
                || d.startsWith("e=putReply"), r.summary());
        List<String> before = Files.readAllLines(Path.of("target", "trace-validation", "copy-numbered-afresh", "run.ndjson"))
                .subList(0, (int) r.failedLine());
        assertTrue(before.stream().anyMatch(l -> l.contains("\"event\":\"clientWrite\"") && !l.contains("\"attempt\":1")),
                "rejected before any write was retransmitted: " + r.summary());
    }
}
