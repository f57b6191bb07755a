package dev.innet.p4sim.stf;

import dev.innet.cli.Cli;
import dev.innet.cli.ExistingDirectory;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code ./innet stf-corpus DIR}: every {@code *-bmv2.p4} in DIR that has a {@code .stf} next to it
 * (the layout of p4c's {@code testdata/p4_16_samples}) run on p4sim; one line per program (pass, fail
 * with the first failure, rejected with the construct, bad STF line, or a p4sim crash), then the
 * totals and the most frequent rejection reasons. Exit 0 when every program passed, 1 otherwise.
 */
@Command(name = "stf-corpus", sortOptions = false, usageHelpAutoWidth = true,
        description = "Runs every *-bmv2.p4 with a matching .stf in DIR on p4sim and prints per program "
                + "pass / fail / rejected and the totals (docs/p4sim.md).")
public final class StfCorpusMain implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "DIR", converter = ExistingDirectory.class, description = "the corpus directory")
    private Path dir;

    @Option(names = "-I", paramLabel = "DIR", converter = ExistingDirectory.class,
            description = "a directory searched for #include files (repeatable)")
    private List<Path> includes = new ArrayList<>();

    @Option(names = "--closures", description = "use the plain-closure code generator instead of per-node classes")
    private boolean closures;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "show this help and exit")
    private boolean help;

    private final PrintStream out;

    StfCorpusMain(PrintStream out) {
        this.out = out;
    }

    public static void main(String[] args) {
        System.exit(Cli.run("stf-corpus", new StfCorpusMain(System.out), args, System.out, System.err));
    }

    /** A p4sim bug (an exception escaping the run), kept apart from the verdicts. */
    private static final String CRASH = "CRASH";

    @Override
    public Integer call() throws IOException {
        List<Path> programs;
        try (Stream<Path> s = Files.list(dir)) {
            programs = s.filter(p -> p.getFileName().toString().endsWith("-bmv2.p4"))
                    .filter(p -> Files.isRegularFile(stfOf(p))).sorted().toList();
        }
        Map<StfMain.Verdict, Integer> totals = new EnumMap<>(StfMain.Verdict.class);
        Map<String, Integer> reasons = new TreeMap<>();
        int crashes = 0;
        for (Path p : programs) {
            String name = p.getFileName().toString();
            try {
                StfMain.Outcome o = StfMain.runOnP4sim(p, stfOf(p), includes, !closures, 1);
                totals.merge(o.verdict(), 1, Integer::sum);
                String first = o.messages().isEmpty() ? "" : o.messages().get(0).lines().findFirst().orElse("");
                switch (o.verdict()) {
                    case PASS -> out.println(name + ": pass");
                    case FAIL -> out.println(name + ": fail: " + first);
                    case BAD_STF -> out.println(name + ": bad STF: " + first);
                    case REJECTED -> {
                        out.println(name + ": rejected: " + first);
                        reasons.merge(construct(first), 1, Integer::sum);
                    }
                }
            } catch (RuntimeException | StackOverflowError e) {
                crashes++;
                out.println(name + ": " + CRASH + ": " + e);
            }
        }
        int n = programs.size();
        int pass = totals.getOrDefault(StfMain.Verdict.PASS, 0);
        out.printf("total %d: pass %d (%.1f%%), fail %d, rejected %d, bad STF %d, crash %d%n", n, pass,
                n == 0 ? 0.0 : 100.0 * pass / n, totals.getOrDefault(StfMain.Verdict.FAIL, 0),
                totals.getOrDefault(StfMain.Verdict.REJECTED, 0), totals.getOrDefault(StfMain.Verdict.BAD_STF, 0), crashes);
        reasons.entrySet().stream().sorted((a, b) -> b.getValue() - a.getValue())
                .forEach(e -> out.println("  rejected " + e.getValue() + "x: " + e.getKey()));
        return pass == n ? 0 : 1;
    }

    private static Path stfOf(Path program) {
        return program.resolveSibling(program.getFileName().toString().replaceAll("\\.p4$", "") + ".stf");
    }

    /** The message after {@code file:line:col: error:}, which names the construct. */
    private static String construct(String message) {
        int e = message.indexOf("error:");
        return (e >= 0 ? message.substring(e + 6) : message).strip();
    }
}
