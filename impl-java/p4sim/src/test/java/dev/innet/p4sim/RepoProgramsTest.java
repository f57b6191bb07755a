package dev.innet.p4sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.innet.p4sim.stf.StfRunner;
import dev.innet.p4sim.v1model.P4Switch;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/** Every data plane in the repository's {@code p4/} compiles, and its {@code p4/tests/NAME.stf} passes. */
class RepoProgramsTest {
    static Path root() {
        String r = System.getProperty("innet.root");
        return Path.of(r == null ? "../.." : r).toAbsolutePath().normalize();
    }

    static List<Path> programs() throws IOException {
        try (Stream<Path> s = Files.list(root().resolve("p4"))) {
            return s.filter(p -> p.toString().endsWith(".p4")).sorted().toList();
        }
    }

    @TestFactory
    Stream<DynamicTest> compileEachProgram() throws IOException {
        List<Path> progs = programs();
        assertFalse(progs.isEmpty(), "no p4/*.p4 under " + root());
        return progs.stream().map(p -> DynamicTest.dynamicTest(p.getFileName().toString(), () -> P4Sim.compile(p)));
    }

    @TestFactory
    Stream<DynamicTest> runEachProgramsStf() throws IOException {
        // on both code generators (per-node classes and plain closures): they must agree
        return programs().stream()
                .filter(p -> Files.exists(stf(p)))
                .flatMap(p -> Stream.of(true, false).map(specialize -> DynamicTest.dynamicTest(
                        stf(p).getFileName() + (specialize ? " (specialised)" : " (closures)"), () -> {
                    P4Switch sw = P4Sim.compile(p).instantiate(
                            dev.innet.p4sim.v1model.SwitchConfig.defaults().withSpecialization(specialize));
                    List<String> failures = new StfRunner(sw).run(stf(p).toString(), Files.readString(stf(p)));
                    assertEquals(List.of(), failures, String.join("\n", failures));
                })));
    }

    /** With coverage probes compiled in the scenario behaves the same, and its packets are counted. */
    @TestFactory
    Stream<DynamicTest> runEachProgramsStfWithCoverage() throws IOException {
        return programs().stream()
                .filter(p -> Files.exists(stf(p)))
                .map(p -> DynamicTest.dynamicTest(stf(p).getFileName() + " (coverage)", () -> {
                    P4Switch sw = P4Sim.compile(p).instantiate(
                            dev.innet.p4sim.v1model.SwitchConfig.defaults().withCoverage(true));
                    List<String> failures = new StfRunner(sw).run(stf(p).toString(), Files.readString(stf(p)));
                    assertEquals(List.of(), failures, String.join("\n", failures));
                    dev.innet.p4sim.coverage.Coverage.Summary s = sw.coverage().summary();
                    org.junit.jupiter.api.Assertions.assertTrue(s.tablesHit() > 0 && s.actionsHit() > 0
                            && s.branchesHit() > 0 && s.branchesHit() < s.branches(), s.toString());
                }));
    }

    /**
     * Every frame of the program's scenario cut at every length, plus random bytes, after the scenario
     * has set the switch up: nothing throws, and every frame is transmitted, dropped or sent to the CPU.
     */
    @TestFactory
    Stream<DynamicTest> truncatedAndGarbageFramesAreSurvived() throws IOException {
        return programs().stream()
                .filter(p -> Files.exists(stf(p)))
                .map(p -> DynamicTest.dynamicTest(p.getFileName().toString(), () -> {
                    P4Switch sw = P4Sim.compile(p).instantiate();
                    String script = Files.readString(stf(p));
                    new StfRunner(sw).run(stf(p).toString(), script);
                    long before = sw.stats().received;
                    long accountedBefore = sw.stats().transmitted + sw.stats().dropped + sw.stats().packetIns;
                    java.util.SplittableRandom rnd = new java.util.SplittableRandom(11);
                    int frames = 0;
                    for (String line : script.split("\n")) {
                        if (!line.startsWith("packet ")) {
                            continue;
                        }
                        String[] w = line.split("\\s+", 3);
                        byte[] full = java.util.HexFormat.of().parseHex(w[2].replaceAll("\\s+", ""));
                        for (int len = 0; len < full.length; len++) {
                            sw.process(Integer.parseInt(w[1]), java.util.Arrays.copyOf(full, len));
                            frames++;
                        }
                        byte[] noisy = full.clone();
                        noisy[rnd.nextInt(noisy.length)] ^= (byte) (1 + rnd.nextInt(255));
                        sw.process(Integer.parseInt(w[1]), noisy);
                        frames++;
                    }
                    assertEquals(frames, sw.stats().received - before);
                    long accounted = sw.stats().transmitted + sw.stats().dropped + sw.stats().packetIns - accountedBefore;
                    // each frame is transmitted, dropped or sent to the CPU at least once (clones may add copies)
                    assertTrue(accounted >= frames, "accounted " + accounted + " of " + frames + ": " + sw.stats());
                    assertTrue(sw.stats().parserErrors > 0, sw.stats().toString());
                }));
    }

    private static Path stf(Path program) {
        return program.resolveSibling("tests").resolve(program.getFileName().toString().replaceAll("\\.p4$", ".stf"));
    }
}
