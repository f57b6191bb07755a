package dev.innet.p4sim.stf;

import dev.innet.cli.Cli;
import dev.innet.cli.ExistingDirectory;
import dev.innet.p4sim.P4Sim;
import dev.innet.p4sim.frontend.CompileError;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * The random differential check of {@code ./innet test}: p4/tests/random_stf.py (a reference model of
 * docs/p4-programs.md) writes a scenario per program and seed, and each must pass on p4sim running
 * {@code p4/PROGRAM.p4}, step by step. Then every mutant of p4/tests/random_stf.mutants (a broken copy
 * of a program) must fail at least one of the scenarios its program passed, which shows that these
 * seeds and this many steps can catch a broken program. Exit 0 if all of that holds, 1 otherwise.
 */
@Command(name = "random-stf", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Runs random differential STF scenarios (p4/tests/random_stf.py) on p4sim and requires "
                + "every mutant in p4/tests/random_stf.mutants to be caught. Exit 0: all passed and all mutants "
                + "caught; 1: a failure (printed with program, seed, step and how to reproduce); 2: bad arguments."})
public final class RandomStfCheck implements Callable<Integer> {
    static final String GENERATOR = "p4/tests/random_stf.py";
    static final String MUTANTS = "p4/tests/random_stf.mutants";
    private static final int MESSAGES_SHOWN = 4;

    /** Produces a scenario; outside tests, {@link #python} runs random_stf.py. */
    interface Generator {
        String generate(String program, long seed, int steps) throws IOException, InterruptedException;

        /** A shell command, run from the repository root, that prints the same scenario. */
        String commandLine(String program, long seed, int steps);
    }

    @Spec
    CommandSpec spec;

    @Option(names = "--root", converter = ExistingDirectory.class,
            description = "repository root: p4/PROGRAM.p4, " + GENERATOR + " and " + MUTANTS + " are read from it (default: .)")
    Path root = Path.of(".");

    @Option(names = "--programs", split = ",", paramLabel = "NAME",
            description = "programs p4/NAME.p4 to check, comma-separated (default: ${DEFAULT-VALUE})")
    List<String> programs = new ArrayList<>(List.of("netcache", "farreach"));

    @Option(names = "--seeds", split = ",", required = true, paramLabel = "N", description = "scenario seeds, comma-separated")
    List<Long> seeds;

    @Option(names = "--steps", required = true, description = "steps per scenario")
    int steps;

    @Option(names = "--python", description = "the Python that runs " + GENERATOR + " (default: ${DEFAULT-VALUE})")
    String python = "python3";

    @Option(names = "--out", description = "where scenarios and mutated programs are written (default: ROOT/.cache/random-stf)")
    Path out;

    @Option(names = "--skip-mutants", description = "run the scenarios only (to rerun one failing seed)")
    boolean skipMutants;

    private final Generator injected;

    public RandomStfCheck() {
        this(null);
    }

    RandomStfCheck(Generator generator) {
        this.injected = generator;
    }

    public static void main(String[] args) {
        Cli.main("random-stf", new RandomStfCheck(), args);
    }

    private record Scenario(String program, long seed, Path file, String text) { }

    @Override
    public Integer call() throws IOException, InterruptedException {
        validate();
        PrintWriter w = spec.commandLine().getOut();
        Path outDir = out != null ? out : root.resolve(".cache/random-stf");
        Files.createDirectories(outDir);
        Generator generator = injected != null ? injected : python();
        List<Mutant> mutants = List.of();
        if (!skipMutants) {
            Optional<List<Mutant>> m = loadMutants(w);
            if (m.isEmpty()) {
                return 1;
            }
            mutants = m.get();
        }
        long started = System.nanoTime();
        int failures = 0;
        // program -> the scenarios it passed: a mutant is judged only on those, since failing a scenario
        // the original program fails too says nothing about the mutant
        Map<String, List<Scenario>> passed = new LinkedHashMap<>();
        for (String program : programs) {
            passed.put(program, new ArrayList<>());
            P4Sim.Program compiled;
            try {
                compiled = P4Sim.compile(programFile(program));
            } catch (CompileError e) {
                w.printf("random-stf: FAIL p4/%s.p4 does not compile: %s%n", program, e.getMessage());
                failures++;
                continue;
            }
            for (long seed : seeds) {
                long t0 = System.nanoTime();
                String text;
                try {
                    text = generator.generate(program, seed, steps);
                } catch (IOException e) {
                    w.printf("random-stf: FAIL %s seed %d: the generator failed: %s%n    command: %s%n", program, seed,
                            e.getMessage(), generator.commandLine(program, seed, steps));
                    failures++;
                    continue;
                }
                Path file = outDir.resolve(program + "-seed" + seed + "-steps" + steps + ".stf");
                Files.writeString(file, text, StandardCharsets.UTF_8);
                Scenario sc = new Scenario(program, seed, file, text);
                StepwiseStf.Outcome o = StepwiseStf.run(compiled.instantiate(), display(file), text);
                if (o.steps() != steps) {
                    w.printf("random-stf: FAIL %s seed %d: the scenario has %d '# step N' markers, expected %d (%s)%n",
                            program, seed, o.steps(), steps, generator.commandLine(program, seed, steps));
                    failures++;
                } else if (o.failure().isPresent()) {
                    reportFailure(w, sc, o.failure().get(), generator);
                    failures++;
                } else {
                    w.printf("random-stf: %s seed %d: %d steps passed (%s)%n", program, seed, steps, seconds(t0));
                    passed.get(program).add(sc);
                }
            }
        }
        for (Mutant m : mutants) {
            if (!passed.containsKey(m.program())) {
                continue;
            }
            if (!checkMutant(w, m, passed.get(m.program()), outDir)) {
                failures++;
            }
        }
        if (failures == 0) {
            w.printf("random-stf: all %d scenarios passed%s (%s)%n", programs.size() * seeds.size(),
                    skipMutants ? "" : ", all " + mutants.size() + " mutants caught", seconds(started));
            return 0;
        }
        w.printf("random-stf: %d failure%s (%s)%n", failures, failures == 1 ? "" : "s", seconds(started));
        return 1;
    }

    private void validate() {
        if (steps < 1) {
            throw Cli.usageError(spec, "--steps must be at least 1, got " + steps);
        }
        for (String p : programs) {
            if (!Files.isRegularFile(programFile(p))) {
                throw Cli.usageError(spec, "no program " + p + " (" + programFile(p) + " does not exist)");
            }
        }
        if (injected == null && !Files.isRegularFile(root.resolve(GENERATOR))) {
            throw Cli.usageError(spec, "no " + GENERATOR + " under --root " + root);
        }
    }

    private Path programFile(String program) {
        return root.resolve("p4").resolve(program + ".p4");
    }

    /** The mutants of the programs checked; each of them must have one, or nothing shows it can fail. */
    private Optional<List<Mutant>> loadMutants(PrintWriter w) throws IOException {
        Path file = root.resolve(MUTANTS);
        if (!Files.isRegularFile(file)) {
            w.printf("random-stf: FAIL no %s: without mutants nothing shows these scenarios can fail%n", MUTANTS);
            return Optional.empty();
        }
        List<Mutant> all;
        try {
            all = Mutant.parse(MUTANTS, Files.readString(file));
        } catch (Mutant.MutantException e) {
            w.printf("random-stf: FAIL %s%n", e.getMessage());
            return Optional.empty();
        }
        List<Mutant> mine = all.stream().filter(m -> programs.contains(m.program())).toList();
        for (String p : programs) {
            if (mine.stream().noneMatch(m -> m.program().equals(p))) {
                w.printf("random-stf: FAIL %s has no mutant of %s: add one, or nothing shows the %s scenarios can fail%n",
                        MUTANTS, p, p);
                return Optional.empty();
            }
        }
        return Optional.of(mine);
    }

    /** True if a scenario catches the mutant. */
    private boolean checkMutant(PrintWriter w, Mutant m, List<Scenario> scenarios, Path outDir) throws IOException {
        if (scenarios.isEmpty()) {
            w.printf("random-stf: mutant %s not judged: %s passed none of its scenarios%n", m.label(), m.program());
            return true; // the program's own failures are already counted
        }
        long t0 = System.nanoTime();
        String source = Files.readString(programFile(m.program()));
        // a directory of its own, with the file name of the original: compile errors then name it as the
        // original, and its #include "include/..." lines resolve through p4/ on the include path
        Path copy = outDir.resolve("mutants").resolve(m.name()).resolve(m.program() + ".p4");
        P4Sim.Program compiled;
        try {
            Files.createDirectories(copy.getParent());
            Files.writeString(copy, m.applyTo(source, "p4/" + m.program() + ".p4"), StandardCharsets.UTF_8);
            compiled = P4Sim.compile(copy, List.of(root.resolve("p4")));
        } catch (Mutant.MutantException e) {
            w.printf("random-stf: FAIL %s%n", e.getMessage());
            return false;
        } catch (CompileError e) {
            w.printf("random-stf: FAIL mutant %s (%s) does not compile, so it shows nothing: %s%n", m.label(), m.origin(),
                    e.getMessage());
            return false;
        }
        for (Scenario sc : scenarios) {
            StepwiseStf.Outcome o = StepwiseStf.run(compiled.instantiate(), display(sc.file()), sc.text());
            if (o.failure().isPresent()) {
                // one line is enough to show what gave the mutant away; a whole frame in hex is not needed
                String first = o.failure().get().messages().get(0).lines().findFirst().orElse("");
                first = first.length() > 160 ? first.substring(0, 160) + "..." : first;
                w.printf("random-stf: mutant %s caught by seed %d at step %d (%s)%n    %s%n", m.label(), sc.seed(),
                        o.failure().get().step(), seconds(t0), first);
                return true;
            }
        }
        w.printf("random-stf: FAIL mutant %s (%s: %s) passed every scenario (seeds %s, %d steps): these scenarios "
                + "cannot tell it from %s.p4; the broken copy is %s%n", m.label(), m.origin(), m.note(), seeds, steps,
                m.program(), display(copy));
        return false;
    }

    private void reportFailure(PrintWriter w, Scenario sc, StepwiseStf.Failure f, Generator generator) {
        w.printf("random-stf: FAIL %s seed %d, step %d of %d: p4/%s.p4 disagrees with the reference model%n",
                sc.program(), sc.seed(), f.step(), steps, sc.program());
        for (String msg : f.messages().subList(0, Math.min(MESSAGES_SHOWN, f.messages().size()))) {
            w.println("    " + msg.replace("\n", "\n    "));
        }
        if (f.messages().size() > MESSAGES_SHOWN) {
            w.printf("    ... %d more in this step%n", f.messages().size() - MESSAGES_SHOWN);
        }
        w.printf("  the scenario is kept in %s (the step starts at its line '# step %d'); to reproduce, from the "
                + "repository root:%n    %s > /tmp/%s-seed%d.stf%n  rerun just this scenario:%n    %s%n",
                display(sc.file()), f.step(), generator.commandLine(sc.program(), sc.seed(), steps), sc.program(), sc.seed(),
                rerunCommand(sc));
    }

    /** This check restricted to one scenario, with the JVM and classpath of this run. */
    private String rerunCommand(Scenario sc) {
        String java = ProcessHandle.current().info().command().orElse("java");
        return java + " -cp " + System.getProperty("java.class.path") + " " + RandomStfCheck.class.getName()
                + " --root " + root.toAbsolutePath().normalize() + " --programs " + sc.program() + " --seeds " + sc.seed()
                + " --steps " + steps + " --skip-mutants";
    }

    /** Paths under the root are shown relative to it. */
    private String display(Path p) {
        Path abs = p.toAbsolutePath().normalize();
        Path r = root.toAbsolutePath().normalize();
        return abs.startsWith(r) ? r.relativize(abs).toString() : abs.toString();
    }

    private static String seconds(long startNanos) {
        return String.format(Locale.ROOT, "%.1f s", (System.nanoTime() - startNanos) / 1e9);
    }

    /** random_stf.py, run by {@link #python} from the repository root; its stderr goes to ours. */
    private Generator python() {
        Path script = root.toAbsolutePath().normalize().resolve(GENERATOR);
        return new Generator() {
            @Override
            public String generate(String program, long seed, int n) throws IOException, InterruptedException {
                Process p = new ProcessBuilder(python, script.toString(), program, Long.toString(seed), Integer.toString(n))
                        .redirectError(ProcessBuilder.Redirect.INHERIT)
                        .start();
                p.getOutputStream().close();
                String text = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                int code = p.waitFor();
                if (code != 0) {
                    throw new IOException(python + " exited with " + code + " (its error output is above)");
                }
                return text;
            }

            @Override
            public String commandLine(String program, long seed, int n) {
                return python + " " + GENERATOR + " " + program + " " + seed + " " + n;
            }
        };
    }
}
