package dev.innet.tracegen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GenerateMainTest {
    private static final Path COUNTER_DIR = TlcSimulationTest.FIXTURES.resolve("counter");
    private static final Path ROOT = Path.of(System.getProperty("innet.root", "../..")).toAbsolutePath().normalize();

    private record Run(int exit, String out, String err) {}

    private static Run generate(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = GenerateMain.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    private static void assertArgumentError(Run r, String mustName) {
        assertEquals(2, r.exit(), r.out() + r.err());
        assertEquals(1, r.err().lines().count(), "one line on stderr: " + r.err());
        assertTrue(r.err().startsWith("tracegen: ") && r.err().contains(mustName), r.err());
        assertEquals("", r.out(), "nothing runs after a bad argument");
    }

    @Test
    void badArgumentsAreOneLineAndExitTwo(@TempDir Path out) {
        String dir = COUNTER_DIR.toString();
        assertArgumentError(generate("--spec-dir", dir), "nothing to do");
        assertArgumentError(generate("--spec-dir", dir, "--simulate", "3"), "--simulate needs --model");
        assertArgumentError(generate("--spec-dir", dir, "--model", "MCCounter"), "give --simulate N too");
        assertArgumentError(generate("--spec-dir", dir, "--model", "MCCounter", "--simulate", "0"), "at least 1");
        assertArgumentError(generate("--spec-dir", dir, "--model", "MCNope", "--simulate", "2"), "no model MCNope.tla");
        assertArgumentError(generate("--spec-dir", dir, "--path-cover", "MCNope"), "--path-cover: no model MCNope.tla");
        assertArgumentError(generate("--spec-dir", out.resolve("missing").toString(), "--path-cover", "X"), "no such directory");
        assertArgumentError(generate("--spec-dir", dir, "--model", "MCCounter", "--simulate", "x"), "--simulate");
        assertArgumentError(generate("--spec-dir", dir, "--simulat", "2"), "--simulat");
    }

    @Test
    void simulationAndPathCoverWriteCasesAndReportCoverage(@TempDir Path out) throws IOException {
        Run r = generate("--spec-dir", COUNTER_DIR.toString(), "--model", "MCCounter", "--simulate", "3", "--depth",
                "5", "--seed", "3", "--path-cover", "MCCounter", "--out", out.toString());
        assertEquals(0, r.exit(), r.out() + r.err());
        List<Path> files;
        try (Stream<Path> s = Files.list(out)) {
            files = s.sorted().toList();
        }
        assertTrue(files.contains(out.resolve("MCCounter-sim-s3-2.json")), files.toString());
        assertTrue(files.contains(out.resolve("MCCounter-pathcover-0.json")), files.toString());
        for (Path f : files) {
            TraceCase c = TraceCase.read(f);
            assertEquals("MCCounter", c.model());
            assertTrue(r.out().contains(f.getFileName() + ": " + c.steps() + " steps"), r.out());
        }
        assertTrue(r.out().contains("simulate MCCounter: 3 behaviours (depth <= 5, seed 3)"), r.out());
        assertTrue(r.out().matches("(?s).*path cover MCCounter: \\d+ states, \\d+ paths.*"), r.out());
        // Jump is off in the model: the report names the constant that disables it
        assertTrue(r.out().contains("Jump is enabled in no reachable state of MCCounter: guarded by AllowJump = "
                + "FALSE in MCCounter"), r.out());
        assertTrue(r.out().contains("actions taken: 3/4 (75%)"), r.out());
        assertTrue(r.out().contains("not taken: Jump (guarded by AllowJump = FALSE in MCCounter)"), r.out());
    }

    @Test
    void coverageCountsListedActionsOnlyAndFlagsUnknownOnes() {
        ActionCoverage coverage = new ActionCoverage(List.of("Inc", "Mark", "Reset", "Teleport"));
        TraceCase.TraceState init = new TraceCase.TraceState(TlaValue.parse("[a |-> \"Init\"]"), List.of());
        TraceCase.TraceState inc = new TraceCase.TraceState(TlaValue.parse("[a |-> \"Inc\", to |-> 1]"), List.of());
        TraceCase.TraceState jump = new TraceCase.TraceState(TlaValue.parse("[a |-> \"Jump\"]"), List.of());
        coverage.add(new TraceCase("s", "m", new TraceCase.Source.PathCover(0, 2), List.of(init, inc, jump), List.of()));
        assertEquals(List.of("Inc"), coverage.taken(), "Init is the initial state, not an action taken");
        assertEquals(List.of("Mark", "Reset", "Teleport"), coverage.notTaken());
        assertEquals(List.of("Jump"), coverage.unknown());
    }

    @Test
    void reasonsAreGuardsOnConstantsTheModelTurnsOff() throws IOException {
        Path spec = ROOT.resolve("specs/farreach/FarReach.tla");
        Path cfg = ROOT.resolve("specs/farreach/MCFarReachSim.cfg");
        assertEquals("guarded by BugEvictBeforeAck = FALSE in MCFarReachSim", ActionCoverage.reason("EvictFinishNoAck", spec, cfg));
        assertEquals("guarded by MaxClientCrash = 0 in MCFarReachSim", ActionCoverage.reason("ClientCrash", spec, cfg));
        // SnapLoad mentions a bug flag that is off, but not as a guard: no reason is made up
        assertEquals("", ActionCoverage.reason("SnapLoad", spec, cfg));
        assertEquals("", ActionCoverage.reason("NoSuchAction", spec, cfg));
    }

    @Test
    void actionNamesComeFromTheSpecsActLabels() throws IOException {
        assertEquals(List.of("Inc", "Mark", "Reset", "Jump"), ActionCoverage.actionsOf(COUNTER_DIR.resolve("Counter.tla")));
        List<String> farreach = ActionCoverage.actionsOf(ROOT.resolve("specs/farreach/FarReach.tla"));
        assertEquals(34, farreach.size(), farreach.toString());
        assertTrue(farreach.containsAll(List.of("ClientWriteHit", "ClientRetry", "SwitchGetReply", "EvictFinishNoAck", "Recover",
                "ServerProbe", "AdmitFloor", "DiscardProbeReply", "ProbeResend")));
    }

    /** The one real FarReach run: a few short behaviours of the simulation model, checked for its features. */
    @Test
    void farReachSimulationModelRunsAndTakesItsFeatures(@TempDir Path out) throws IOException {
        Run r = generate("--spec-dir", ROOT.resolve("specs/farreach").toString(), "--model", "MCFarReachSim",
                "--simulate", "4", "--depth", "30", "--seed", "1", "--out", out.toString());
        assertEquals(0, r.exit(), r.out() + r.err());
        TraceCase c = TraceCase.read(out.resolve("MCFarReachSim-sim-s1-0.json"));
        assertEquals("specs/farreach/FarReach.tla", c.spec());
        assertEquals(30, c.states().size());
        assertEquals(TlaValue.parse("{c1, c2, c3}"), new TlaValue.TlaSet(((TlaValue.Fn) c.states().getFirst().get("pend"))
                .pairs().stream().map(TlaValue.Pair::key).toList()));
        assertTrue(r.out().contains("not taken: ClientCrash (guarded by MaxClientCrash = 0 in MCFarReachSim)"),
                r.out());
    }
}
