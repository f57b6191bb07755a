package dev.innet.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.innet.cli.Cli;
import dev.innet.rack.RackRuns;
import dev.innet.tracegen.TlaValue;
import dev.innet.tracegen.TlcModel;
import dev.innet.tracegen.TlcSimulation;
import dev.innet.tracegen.TraceCase;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** ./innet conform's short fixed run (part of ./innet test) and its failure path. */
class ConformMainTest {
    @TempDir
    Path out;

    private record Run(int code, String out) {}

    /** ./innet conform ARGS --out (the test's directory). */
    private Run conform(String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of("--out", out.toString()));
        return conformAsGiven(all.toArray(String[]::new));
    }

    /** ./innet conform ARGS, its output captured. */
    private static Run conformAsGiven(String... args) {
        System.setProperty("innet.root", RackRuns.root().toString());
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream previous = System.out;
        try {
            System.setOut(new PrintStream(bytes, true, StandardCharsets.UTF_8));
            int code = Cli.run("innet conform", new ConformMain(), args, System.out, System.err);
            return new Run(code, bytes.toString(StandardCharsets.UTF_8));
        } finally {
            System.setOut(previous);
        }
    }

    @Test
    void simulatedBehavioursOfTheSmallModelsReplayStepForStep() {
        Run r = conform("--simulate", "10", "--seed", "3", "--model", "MCFarReachCache", "MCFarReachDup", "--traces",
                out.toString()); // a directory with no trace files: only the simulated behaviours
        assertEquals(0, r.code(), r.out());
        assertTrue(r.out().contains("20 traces: 20 passed, 0 failed"), r.out());
        assertTrue(r.out().contains("spec actions replayed:"), r.out());
        // then the P4 coverage of the 20 switches, every count in the output directory
        assertTrue(r.out().contains("P4 coverage: tables ") && r.out().contains("(20 switches)"), r.out());
        assertTrue(java.nio.file.Files.exists(out.resolve(dev.innet.conformance.P4Coverage.JSON_FILE)), r.out());
    }

    @Test
    void netCacheCuratedTracesAndSimulatedBehavioursReplay() {
        Run r = conform("--protocol", "netcache", "--simulate", "3", "--seed", "1", "--model", "MCNetCacheConform");
        assertEquals(0, r.code(), r.out());
        // 8 curated + 3 simulated, every one to its end (restarts and the admission's probe included)
        assertTrue(r.out().contains("11 traces: 11 passed, 0 failed, 0 not fully replayed"), r.out());
        assertTrue(r.out().contains("spec actions replayed: 17 of 17"), r.out());
    }

    @Test
    void curatedTracesReplayWithTheSwitchReadThroughP4Runtime() {
        Path curated = RackRuns.root().resolve("conformance/netcache");
        Run r = conform("--protocol", "netcache", "--simulate", "0", "--switch-api", "p4runtime", "--traces",
                curated.resolve("invalidate-then-refill.trace").toString(), curated.resolve("stale-refill-dropped.trace").toString());
        assertEquals(0, r.code(), r.out());
        assertTrue(r.out().contains("switch API p4runtime, 2 traces"), r.out());
        assertTrue(r.out().contains("2 traces: 2 passed, 0 failed"), r.out());
        Run bad = conform("--simulate", "0", "--switch-api", "thrift");
        assertEquals(2, bad.code(), "a usage error");
    }

    @Test
    void aTraceTheImplementationCannotFollowFailsIsKeptAndCanBeReplayedAlone() throws Exception {
        TraceCase real = TlcSimulation.run(new TlcModel(RackRuns.root().resolve("specs/farreach"), "MCFarReachCache"),
                RackRuns.root(), 1, 40, 5, out.resolve("gen"), Duration.ofMinutes(5)).cases().get(0);
        // corrupt the last state: the switch's counter of the key jumps to 9, which no step does
        List<TraceCase.TraceState> states = new ArrayList<>(real.states());
        TraceCase.TraceState last = states.getLast();
        List<TlaValue.Field> vars = new ArrayList<>();
        for (TlaValue.Field f : last.vars()) {
            vars.add(f.name().equals("ctr")
                    ? new TlaValue.Field("ctr", new TlaValue.Fn(List.of(new TlaValue.Pair(new TlaValue.ModelValue("k1"),
                            new TlaValue.Int(9))))) : f);
        }
        states.set(states.size() - 1, new TraceCase.TraceState(last.action(), vars));
        Path file = out.resolve("corrupted.json");
        new TraceCase(real.spec(), real.model(), real.source(), states, List.of()).write(file);
        Run r = conform("--simulate", "0", "--traces", file.toString());
        assertEquals(1, r.code(), r.out());
        assertTrue(r.out().contains("FAILED at step " + (states.size() - 1)), r.out());
        assertTrue(r.out().contains("spec ctr = "), r.out());
        assertTrue(r.out().contains("reproduce: ./innet conform --protocol farreach --simulate 0 --traces "), r.out());
    }

    /** A failed trace's reproduce line replays it where it failed: the same protocol, target and switch API. */
    @Test
    void theReproduceLineNamesTheProtocolTargetAndSwitchApi() {
        ConformMain onP4sim = new ConformMain();
        onP4sim.protocol = "distcache";
        assertEquals("--protocol distcache", onP4sim.reproduceOptions());
        ConformMain onBmv2 = new ConformMain();
        onBmv2.protocol = "netcache";
        onBmv2.target = "bmv2";
        onBmv2.bmv2Ports = List.of(1, 2, 64);
        onBmv2.switchApi = "p4runtime";
        assertEquals("--protocol netcache --target bmv2 --bmv2-wait 300 --bmv2-quiet 60 --bmv2-ports 1,2,64 --switch-api p4runtime",
                onBmv2.reproduceOptions());
    }

    /**
     * {@code --protocol all} (verify's bounded stage): every protocol with a spec replay, in one JVM, each on its own
     * curated traces, then a line each; the options that name one protocol's files are refused with it.
     */
    @Test
    void allRunsEveryProtocolWithASpecReplayAndRefusesOneProtocolsFiles() {
        Run refused = conform("--protocol", "all"); // conform() adds --out
        assertEquals(2, refused.code(), refused.out());
        Run all = conformAsGiven("--protocol", "all", "--simulate", "0");
        String text = all.out();
        assertEquals(0, all.code(), text);
        List<String> withReplay = dev.innet.protocol.ProtocolRegistry.all().stream()
                .filter(p -> p.conformance().isPresent()).map(dev.innet.protocol.Protocol::name).toList();
        assertTrue(withReplay.size() >= 7, "farreach, netcache, lake, pegasus, pegasus-chain, distcache, visibility: " + withReplay);
        for (String name : withReplay) {
            assertTrue(text.contains("innet conform: " + name + " on p4sim"), name + " ran: " + text);
            assertTrue(text.matches("(?s).*innet conform: " + java.util.regex.Pattern.quote(name) + " +passed\\R.*"),
                    name + "'s summary line: " + text);
        }
    }
}
