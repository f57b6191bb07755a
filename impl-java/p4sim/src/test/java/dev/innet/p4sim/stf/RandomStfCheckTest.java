package dev.innet.p4sim.stf;

import static dev.innet.p4sim.stf.StepwiseStfTest.EXPECT;
import static dev.innet.p4sim.stf.StepwiseStfTest.PACKET;
import static dev.innet.p4sim.stf.StepwiseStfTest.ROUTE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.innet.cli.Cli;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The check on a small repository of its own: p4/demo.p4 (the basic forwarding test program, its
 * declarations in p4/include/headers.p4) and scenarios written by hand in place of random_stf.py's.
 */
class RandomStfCheckTest {
    /** Not IPv4: goes to the CPU port, which the switch does not have, so nothing comes out. */
    private static final String NOT_IPV4 = "packet 2 000000000001000000000002 86dd 0102030405060708";
    private static final String TTL_MUTANT = """
            mutant demo ttl: ipv4_forward decrements the TTL by 2
            - hdr.ipv4.ttl = hdr.ipv4.ttl - 1;
            + hdr.ipv4.ttl = hdr.ipv4.ttl - 2;
            """;

    @TempDir
    Path root;

    private final List<String> generated = new ArrayList<>();

    @BeforeEach
    void writeRepository() throws Exception {
        String basic = Files.readString(Path.of(getClass().getResource("/stf/basic.p4").toURI()));
        int parser = basic.indexOf("parser MyParser");
        Files.createDirectories(root.resolve("p4/include"));
        Files.createDirectories(root.resolve("p4/tests"));
        Files.writeString(root.resolve("p4/include/headers.p4"), basic.substring(basic.indexOf("const bit<16>"), parser));
        Files.writeString(root.resolve("p4/demo.p4"),
                "#include <core.p4>\n#include <v1model.p4>\n#include \"include/headers.p4\"\n" + basic.substring(parser));
        Files.writeString(root.resolve("p4/tests/random_stf.mutants"), TTL_MUTANT);
    }

    /**
     * Seed 1 sends only packets the mutant handles like the program; seed 2 forwards an IPv4 packet at
     * step 3; seed 3 expects a wrong TTL at step 2; seed 4 has one step marker too few.
     */
    private String scenario(String program, long seed, int steps) throws IOException {
        generated.add(program + " " + seed + " " + steps);
        assertEquals(3, steps);
        List<String> s = new ArrayList<>(List.of("# " + program + " seed " + seed, ROUTE));
        for (int step = 1; step <= (seed == 4 ? 2 : 3); step++) {
            s.add("# step " + step);
            if (seed == 2 && step == 3) {
                s.addAll(List.of(PACKET, EXPECT));
            } else if (seed == 3 && step == 2) {
                s.addAll(List.of(PACKET, EXPECT.replace("3f1126cb", "3e1126cb")));
            } else if (seed == 5) {
                throw new IOException("no such interpreter");
            } else {
                s.add(NOT_IPV4);
            }
        }
        return String.join("\n", s) + "\n";
    }

    private record Run(int code, String out, String err) { }

    private Run run(String... args) {
        RandomStfCheck check = new RandomStfCheck(new RandomStfCheck.Generator() {
            @Override
            public String generate(String program, long seed, int steps) throws IOException {
                return scenario(program, seed, steps);
            }

            @Override
            public String commandLine(String program, long seed, int steps) {
                return "generate " + program + " " + seed + " " + steps;
            }
        });
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        List<String> all = new ArrayList<>(List.of("--root", root.toString(), "--programs", "demo", "--steps", "3"));
        all.addAll(List.of(args));
        int code = Cli.run("random-stf", check, all.toArray(String[]::new), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void passingScenariosAndACaughtMutantExitZero() throws IOException {
        Run r = run("--seeds", "1,2");
        assertEquals(0, r.code(), r.out() + r.err());
        assertTrue(r.out().contains("random-stf: demo seed 1: 3 steps passed"), r.out());
        assertTrue(r.out().contains("random-stf: mutant demo ttl caught by seed 2 at step 3"), r.out());
        assertTrue(r.out().contains("all 2 scenarios passed, all 1 mutants caught"), r.out());
        // the broken copy compiled from its own directory, its include found through p4/ on the include path
        Path copy = root.resolve(".cache/random-stf/mutants/ttl/demo.p4");
        assertTrue(Files.readString(copy).contains("        hdr.ipv4.ttl = hdr.ipv4.ttl - 2;\n"));
        assertTrue(Files.readString(copy).contains("#include \"include/headers.p4\""));
        assertEquals(List.of("demo 1 3", "demo 2 3"), generated);
    }

    @Test
    void aMutantNoScenarioCatchesFailsTheCheck() {
        Run r = run("--seeds", "1");
        assertEquals(1, r.code(), r.out());
        assertTrue(r.out().contains("random-stf: FAIL mutant demo ttl (p4/tests/random_stf.mutants:1: ipv4_forward decrements "
                + "the TTL by 2) passed every scenario (seeds [1], 3 steps)"), r.out());
        assertTrue(r.out().contains(".cache/random-stf/mutants/ttl/demo.p4"), r.out());
    }

    @Test
    void aFailingScenarioNamesProgramSeedStepAndHowToReproduce() throws IOException {
        Run r = run("--seeds", "1,3", "--out", root.resolve("scenarios").toString());
        assertEquals(1, r.code(), r.out());
        assertTrue(r.out().contains("random-stf: FAIL demo seed 3, step 2 of 3: p4/demo.p4 disagrees with the reference model\n"
                + "    scenarios/demo-seed3-steps3.stf:7: packet on port 4 differs at nibble 45"), r.out());
        assertTrue(r.out().contains("the scenario is kept in scenarios/demo-seed3-steps3.stf (the step starts at its line '# step 2')"), r.out());
        assertTrue(r.out().contains("    generate demo 3 3 > /tmp/demo-seed3.stf\n"), r.out());
        assertTrue(r.out().contains(" dev.innet.p4sim.stf.RandomStfCheck --root " + root.toAbsolutePath().normalize()
                + " --programs demo --seeds 3 --steps 3 --skip-mutants\n"), r.out());
        assertTrue(Files.readString(root.resolve("scenarios/demo-seed3-steps3.stf")).contains("3e1126cb"));
        // seed 1 passed, but it does not catch the mutant: that is a second failure
        assertTrue(r.out().contains("random-stf: 2 failures"), r.out());
    }

    @Test
    void aScenarioWithTheWrongNumberOfStepsFails() {
        Run r = run("--seeds", "4", "--skip-mutants");
        assertEquals(1, r.code(), r.out());
        assertTrue(r.out().contains("random-stf: FAIL demo seed 4: the scenario has 2 '# step N' markers, expected 3 (generate demo 4 3)"),
                r.out());
    }

    @Test
    void aFailingGeneratorFailsTheCheck() {
        Run r = run("--seeds", "5", "--skip-mutants");
        assertEquals(1, r.code(), r.out());
        assertTrue(r.out().contains("random-stf: FAIL demo seed 5: the generator failed: no such interpreter"), r.out());
    }

    @Test
    void aMutantThatNoLongerFitsItsProgramFailsTheCheck() throws IOException {
        Files.writeString(root.resolve("p4/tests/random_stf.mutants"), TTL_MUTANT.replace("- 1;", "- 7;"));
        Run r = run("--seeds", "2");
        assertEquals(1, r.code(), r.out());
        assertTrue(r.out().contains("random-stf: FAIL p4/tests/random_stf.mutants:1: the '-' lines of mutant demo ttl do not occur "
                + "in p4/demo.p4"), r.out());
    }

    @Test
    void aProgramWithoutMutantsFailsTheCheck() throws IOException {
        Files.writeString(root.resolve("p4/tests/random_stf.mutants"), TTL_MUTANT.replace("mutant demo", "mutant other"));
        Run r = run("--seeds", "2");
        assertEquals(1, r.code(), r.out());
        assertTrue(r.out().contains("has no mutant of demo"), r.out());
        assertEquals(List.of(), generated, "nothing runs");
    }

    @Test
    void badArgumentsAreOneLineExitTwo() {
        for (String[] args : List.of(new String[] {"--seeds", "1", "--steps", "0"}, new String[] {"--seeds", "x"},
                new String[] {"--seeds", "1", "--programs", "nosuch"}, new String[] {})) {
            Run r = run(args);
            assertEquals(Cli.EXIT_USAGE, r.code(), List.of(args) + ": " + r.out() + r.err());
            assertEquals(1, r.err().strip().lines().count(), r.err());
            assertTrue(r.err().startsWith("random-stf: "), r.err());
        }
        assertTrue(run("--seeds", "1", "--programs", "nosuch").err().contains("no program nosuch"));
        assertEquals(List.of(), generated, "nothing runs");
    }
}
