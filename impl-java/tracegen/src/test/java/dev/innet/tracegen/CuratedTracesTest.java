package dev.innet.tracegen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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

/** The committed cases under conformance/: readable, explained, and consistent with the spec. */
class CuratedTracesTest {
    private static final Path ROOT = Path.of(System.getProperty("innet.root", "../..")).toAbsolutePath().normalize();

    @Test
    void everyCommittedFarReachCaseReadsAndIsABehaviourOfTheSpec() throws IOException {
        // 44: every case was re-derived for FillBySeen's admission probe (2026-11-25), so all carry today's
        // variables (seen, fillFloor, probing and the fence included)
        checkCurated("farreach", "FarReach.tla", 44);
    }

    @Test
    void everyCommittedNetCacheCaseReadsAndIsABehaviourOfTheSpec() throws IOException {
        // 21 since FillBySeen (seen, fillFloor, probing, obs); every case re-derived or cut for it (2026-11-25)
        checkCurated("netcache", "NetCache.tla", 21);
    }

    @Test
    void everyCommittedDistCacheCaseReadsAndIsABehaviourOfTheSpec() throws IOException {
        // CacheUpdate's two labels (taken, refused) are both actions
        assertTrue(ActionCoverage.actionsOf(ROOT.resolve("specs/distcache/DistCache.tla")).contains("CacheUpdateRefused"));
        checkCurated("distcache", "DistCache.tla", 22);
    }

    @Test
    void everyCommittedLakeCaseReadsAndIsABehaviourOfTheSpec() throws IOException {
        checkCurated("lake", "Lake.tla", 22);
    }

    @Test
    void everyCommittedPegasusCaseReadsAndIsABehaviourOfTheSpec() throws IOException {
        checkCurated("pegasus", "Pegasus.tla", 14);
    }

    @Test
    void everyCommittedPegasusChainCaseReadsAndIsABehaviourOfTheSpec() throws IOException {
        checkCurated("pegasus-chain", "pegasus", "PegasusChain.tla", 16, 21); // 21: traces of the spec with failures, marks, virtual writes and retries
    }

    /** Every case in conformance/PROTOCOL names the spec and an existing model, starts in Init and takes actions of Next. */
    private static void checkCurated(String protocol, String specFile, Integer... variableCounts) throws IOException {
        checkCurated(protocol, protocol, specFile, variableCounts);
    }

    /** The same for a protocol whose spec lives in another protocol's directory (pegasus-chain's in specs/pegasus). */
    private static void checkCurated(String protocol, String specDirName, String specFile, Integer... variableCounts)
            throws IOException {
        List<Integer> variables = List.of(variableCounts);
        List<Path> files;
        try (Stream<Path> s = Files.list(ROOT.resolve("conformance").resolve(protocol))) {
            files = s.filter(p -> p.toString().endsWith(".trace")).sorted().toList();
        }
        assertTrue(files.size() >= 3, "a curated set: " + files);
        Path specDir = ROOT.resolve("specs").resolve(specDirName);
        List<String> actions = ActionCoverage.actionsOf(specDir.resolve(specFile));
        for (Path f : files) {
            TraceCase c = TraceCase.read(f); // also requires the '# why:' line
            assertEquals(ROOT.resolve(c.spec()), specDir.resolve(specFile), f + " names " + c.spec());
            assertTrue(Files.isRegularFile(specDir.resolve(c.model() + ".cfg")), f + ": " + c.model());
            assertEquals(TlaValue.parse("[a |-> \"Init\"]"), c.states().getFirst().action(), f.toString());
            for (TraceCase.TraceState s : c.states()) {
                assertEquals(s.action(), s.get("act"), f + ": the action is the state's act");
                assertTrue(variables.contains(s.vars().size()), f + ": every variable of " + specFile + " (" + variables
                        + "), not " + s.vars().size());
                assertEquals(c.states().getFirst().vars().stream().map(TlaValue.Field::name).toList(),
                        s.vars().stream().map(TlaValue.Field::name).toList(), f + ": the same variables in every state");
            }
            for (TraceCase.TraceState s : c.states().subList(1, c.states().size())) {
                assertTrue(actions.contains(s.actionName()), f + ": " + s.actionName() + " is an action of Next");
            }
        }
    }

    @Test
    void curateKeepsAPrefixAndWritesTheHeader(@TempDir Path dir) throws IOException {
        TraceCase.TraceState init = new TraceCase.TraceState(TlaValue.parse("[a |-> \"Init\"]"),
                List.of(new TlaValue.Field("x", new TlaValue.Int(0))));
        TraceCase.TraceState inc = new TraceCase.TraceState(TlaValue.parse("[a |-> \"Inc\"]"),
                List.of(new TlaValue.Field("x", new TlaValue.Int(1))));
        new TraceCase("s.tla", "M", new TraceCase.Source.Simulate(4, 2), List.of(init, inc, inc), List.of())
                .write(dir.resolve("g.json"));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = CurateMain.run(new String[] {"--case", dir.resolve("g.json").toString(), "--steps", "1", "--why",
                "one increment", "--out", dir.resolve("c.trace").toString()},
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(0, exit, err.toString(StandardCharsets.UTF_8));
        TraceCase c = TraceCase.read(dir.resolve("c.trace"));
        assertEquals(List.of(init, inc), c.states());
        assertEquals(List.of("why: one increment", "source: M, behaviour 2 of a TLC simulation with seed 4, first 1 of its 2 steps"),
                c.comments());

        exit = CurateMain.run(new String[] {"--case", dir.resolve("g.json").toString(), "--steps", "3", "--why", "x",
                "--out", dir.resolve("d.trace").toString()},
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(2, exit);
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("--steps must be 1..2"), err.toString(StandardCharsets.UTF_8));
        assertFalse(Files.exists(dir.resolve("d.trace")));
    }
}
