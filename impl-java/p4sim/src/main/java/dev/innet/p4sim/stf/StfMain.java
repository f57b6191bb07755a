package dev.innet.p4sim.stf;

import dev.innet.cli.Cli;
import dev.innet.cli.ExistingDirectory;
import dev.innet.cli.ExistingFile;
import dev.innet.p4sim.P4Sim;
import dev.innet.p4sim.frontend.CompileError;
import dev.innet.p4sim.v1model.P4Switch;
import dev.innet.p4sim.v1model.SwitchConfig;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code ./innet stf PROGRAM.p4 [TEST.stf]}: runs a p4c-format STF test on p4sim (outputs matched as
 * p4c's bmv2 runner matches them). Exit 0: the test passed; 1: it failed; 2: bad input (a missing
 * file, an STF line that cannot be understood) or a program p4sim rejects ({@code file:line:col}
 * and the construct are printed).
 */
@Command(name = "stf", sortOptions = false, usageHelpAutoWidth = true,
        description = "Runs a p4c STF test (PROGRAM.p4 and TEST.stf, by default PROGRAM.stf) on p4sim: "
                + "exit 0 pass, 1 fail, 2 bad input or a program p4sim rejects (docs/p4sim.md).")
public final class StfMain implements Callable<Integer> {
    static final int EXIT_PASS = 0;
    static final int EXIT_FAIL = 1;
    static final int EXIT_BAD_INPUT = Cli.EXIT_USAGE;

    @Spec
    private CommandSpec spec;

    @Parameters(index = "0", paramLabel = "PROGRAM.p4", converter = ExistingFile.class, description = "the v1model program")
    private Path program;

    @Parameters(index = "1", arity = "0..1", paramLabel = "TEST.stf",
            description = "the STF test (default: the program's name with .stf)")
    private Path test;

    @Option(names = "--target", paramLabel = "p4sim|bmv2", description = "where to run it (default: ${DEFAULT-VALUE})")
    private String target = "p4sim";

    @Option(names = "-I", paramLabel = "DIR", converter = ExistingDirectory.class,
            description = "a directory searched for #include files (repeatable; the program's own directory is searched first)")
    private List<Path> includes = new ArrayList<>();

    @Option(names = "--closures", description = "use the plain-closure code generator instead of per-node classes")
    private boolean closures;

    @Option(names = "--seed", paramLabel = "S", description = "seed of the random() extern (default: ${DEFAULT-VALUE})")
    private long seed = 1;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "show this help and exit")
    private boolean help;

    private final PrintStream out;
    private final PrintStream err;

    StfMain(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    static int run(String[] args, PrintStream out, PrintStream err) {
        return Cli.run("stf", new StfMain(out, err), args, out, err);
    }

    @Override
    public Integer call() throws IOException {
        Path script = test != null ? test : Path.of(program.toString().replaceAll("\\.p4$", "") + ".stf");
        if (!Files.isRegularFile(script)) {
            throw Cli.usageError(spec, "no STF test " + script + (test == null ? " (give TEST.stf)" : ""));
        }
        switch (target) {
            case "p4sim" -> { }
            case "bmv2" -> {
                return Bmv2Target.run(program, script, out, err);
            }
            default -> throw Cli.usageError(spec, "--target must be p4sim or bmv2, got '" + target + "'");
        }
        Outcome o = runOnP4sim(program, script, includes, !closures, seed);
        switch (o.verdict()) {
            case PASS -> out.println(program + ": pass");
            case FAIL -> {
                o.messages().forEach(err::println);
                out.println(program + ": FAIL (" + o.messages().size() + " failure(s))");
            }
            default -> o.messages().forEach(err::println);
        }
        return switch (o.verdict()) {
            case PASS -> EXIT_PASS;
            case FAIL -> EXIT_FAIL;
            default -> EXIT_BAD_INPUT;
        };
    }

    /** What one STF run came to; {@code messages}: the failures, the bad lines, or the compile error. */
    public record Outcome(Verdict verdict, List<String> messages) { }

    public enum Verdict { PASS, FAIL, BAD_STF, REJECTED }

    /** Compiles and runs one test in this process; never throws for a bad program or script. */
    public static Outcome runOnP4sim(Path program, Path script, List<Path> includes, boolean specialize, long seed)
            throws IOException {
        List<Path> searched = new ArrayList<>();
        if (program.toAbsolutePath().getParent() != null) {
            searched.add(program.toAbsolutePath().getParent());
        }
        searched.addAll(includes);
        P4Sim.Program compiled;
        try {
            compiled = P4Sim.compile(program, searched);
        } catch (CompileError e) {
            return new Outcome(Verdict.REJECTED, List.of(e.getMessage()));
        }
        P4Switch sw = compiled.instantiate(SwitchConfig.defaults().withSeed(seed).withSpecialization(specialize));
        StfRunner runner = new StfRunner(sw).p4cMatching();
        List<String> failures = runner.run(script.toString(), Files.readString(script));
        if (!runner.formatErrors().isEmpty()) {
            return new Outcome(Verdict.BAD_STF, List.copyOf(runner.formatErrors()));
        }
        return new Outcome(failures.isEmpty() ? Verdict.PASS : Verdict.FAIL, List.copyOf(failures));
    }
}
