package dev.innet.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.innet.cli.Cli;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code rack validate} on a rack that is down (its plan and trace events left in the state directory): what
 * it refuses and how it names a broken event line. No namespaces and no TLC: every case ends before TLC starts.
 */
class RackValidateTest {
    private static final String RACK = "rv1";

    @TempDir
    Path root;
    private RackLayout layout;

    private record Run(int exit, String out) {}

    @BeforeEach
    void aRackThatWasBroughtDown() throws Exception {
        layout = RackLayout.of(RACK, root.resolve(".cache/rack").resolve(RACK), 2, 2);
        plan("farreach", true);
        Files.createDirectories(layout.traceEventsOf(0).getParent());
    }

    private void plan(String protocol, boolean traceEvents) throws Exception {
        Files.createDirectories(layout.stateDir());
        Files.write(layout.stateDir().resolve("plan.down.txt"), List.of("setting rack " + RACK, "setting protocol " + protocol,
                "setting servers 2", "setting clients 2", "setting trace-events " + (traceEvents ? "yes" : "no")));
    }

    private Run validate() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        int exit = Cli.run("rack", new RackMain(out, out), new String[] {"--root", root.toString(), "validate", "--name", RACK},
                out, out);
        return new Run(exit, bytes.toString(StandardCharsets.UTF_8));
    }

    @Test
    void aTruncatedLineInAHostsFileIsNamedByFileAndLine() throws Exception {
        Files.write(layout.traceEventsOf(3), List.of(
                "{\"time\":10,\"host\":3,\"incarnation\":0,\"event\":\"clientWrite\",\"key\":\"user1\",\"value\":\"a\",\"reqId\":1,\"attempt\":1}",
                "{\"time\":12,\"host\":3,\"incarnation\":0,\"event\":\"clientRep"));
        Run r = validate();
        assertEquals(RackMain.Validate.EXIT_UNKNOWN, r.exit(), r.out());
        assertTrue(r.out().contains("unknown") && r.out().contains("h3.ndjson:2"), r.out());
    }

    @Test
    void aGarbledLineIsNamedByTheMergedFileAndItsLine() throws Exception {
        Files.write(layout.traceEventsOf(0), List.of(
                "{\"time\":11,\"host\":0,\"incarnation\":0,\"event\":\"switchIn\",\"client\":3,\"reqId\":1,\"op\":2}"));
        Files.write(layout.traceEventsOf(3), List.of(
                "{\"time\":10,\"host\":3,\"incarnation\":0,\"event\":\"clientWrite\",\"key\":\"user1\",\"value\":\"a\",\"reqId\":1,\"attempt\":1}",
                "{\"time\":12,\"host\":3,\"incarnation\":0,\"event\":clientReply}"));
        Run r = validate();
        assertEquals(RackMain.Validate.EXIT_UNKNOWN, r.exit(), r.out());
        Path merged = LiveRunValidation.directoryOf(layout).resolve("run.ndjson");
        assertTrue(r.out().contains("unknown: cannot convert " + merged + ": line 3, column"), r.out());
        assertEquals(3, Files.readAllLines(merged).size(), "the switch's line merged in time order with the host's");
    }

    /**
     * LaKe's servers are the real memcached, which records nothing; a memcached that rack restart started again came
     * back empty, which no event shows (the trace model has no restart): unknown, naming the process, before any
     * inference or TLC.
     */
    @Test
    void aLakeRackWhoseMemcachedWasRestartedIsUnknownNamingIt() throws Exception {
        plan("lake", true);
        Files.write(layout.stateDir().resolve("plan.down.txt"), List.of(
                "process server-h1 100 1 " + layout.logOf("server-h1"), "process server-h2 101 1 " + layout.logOf("server-h2"),
                "process server-h1 102 5 " + layout.logOf("server-h1")), java.nio.file.StandardOpenOption.APPEND);
        Files.write(layout.traceEventsOf(3), List.of(
                "{\"time\":10,\"host\":3,\"incarnation\":0,\"event\":\"clientTimeout\",\"op\":\"get\",\"retry\":false}"));
        Run r = validate();
        assertEquals(RackMain.Validate.EXIT_UNKNOWN, r.exit(), r.out());
        assertTrue(r.out().contains("lake run unknown: server program restarted on [server-h1]"), r.out());
    }

    @Test
    void aRackWithoutTraceEventsOrWithoutTraceValidationIsABadArgument() throws Exception {
        plan("farreach", false);
        Run noEvents = validate();
        assertEquals(Cli.EXIT_USAGE, noEvents.exit(), noEvents.out());
        assertTrue(noEvents.out().contains("without --trace-events"), noEvents.out());
        plan("nocache", true); // no spec, so no trace validation
        Run nocache = validate();
        assertEquals(Cli.EXIT_USAGE, nocache.exit(), nocache.out());
        assertTrue(nocache.out().contains("nocache, which has no trace validation"), nocache.out());
    }
}
