package dev.innet.app;

import dev.innet.cli.Cli;
import dev.innet.conformance.ConformanceSuite;
import dev.innet.conformance.P4Coverage;
import dev.innet.conformance.P4RuntimeReplayTarget;
import dev.innet.conformance.P4simReplayTarget;
import dev.innet.protocol.Protocol;
import dev.innet.protocol.ProtocolRegistry;
import dev.innet.protocol.spec.SpecConformance;
import dev.innet.tracegen.TraceCase;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code ./innet conform}: spec behaviours replayed on the implementation (docs/conformance.md): the
 * protocol's curated traces (conformance/PROTOCOL/, or the files {@code --traces} names instead) and
 * behaviours TLC simulates on each of its conformance models ({@code --simulate 0}: none). Exit 1 if
 * any trace failed.
 */
@Command(name = "innet conform", mixinStandardHelpOptions = true, description = {
    "Replays spec behaviours on the P4 program and the protocol's Java nodes, comparing the implementation's",
    "state with the spec's after every step; prints each trace's result, then the spec-action coverage and the",
    "P4 coverage (tables, actions, branches, register guards; every count in OUT/p4-coverage.json)."})
public final class ConformMain implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--protocol", description = "a registered protocol with a spec replay (default ${DEFAULT-VALUE})")
    String protocol = "farreach";

    @Option(names = "--target", description = "p4sim (default) or bmv2")
    String target = "p4sim";

    @Option(names = "--switch-api", paramLabel = "direct|p4runtime", description = "how the replay reaches the switch's "
            + "tables and registers: p4sim's in-process control API, or P4Runtime to a server on loopback in front of the "
            + "same switch (default ${DEFAULT-VALUE})")
    String switchApi = "direct";

    @Option(names = "--traces", arity = "1..*", paramLabel = "FILE|DIR",
            description = "replay these trace files (.trace, .json) or directories of them instead of conformance/PROTOCOL")
    List<Path> traces = List.of();

    @Option(names = "--model", arity = "1..*", description = "models to simulate (default: the protocol's conformance models)")
    List<String> models = List.of();

    @Option(names = "--simulate", description = "behaviours TLC simulates per model (default ${DEFAULT-VALUE}; 0: none)")
    int behaviours = 20;

    @Option(names = "--depth", description = "states per simulated behaviour at most (default ${DEFAULT-VALUE})")
    int depth = 60;

    @Option(names = "--seed", description = "TLC's simulation seed (default ${DEFAULT-VALUE})")
    long seed = 1;

    @Option(names = "--out", description = "generated and failing traces (default: .cache/conformance/PROTOCOL)")
    Path out;

    public static void main(String[] args) {
        Cli.main("innet conform", new ConformMain(), args);
    }

    @Override
    public Integer call() throws Exception {
        Protocol p;
        try {
            p = ProtocolRegistry.byName(protocol);
        } catch (IllegalArgumentException e) {
            throw Cli.usageError(spec, "--protocol: " + e.getMessage());
        }
        SpecConformance conformance = p.conformance()
                .orElseThrow(() -> Cli.usageError(spec, "--protocol: " + protocol + " has no spec replay yet"));
        if (target.equals("bmv2")) {
            throw Cli.usageError(spec, "--target bmv2: the bmv2 replay target is not built yet (docs/conformance.md)");
        }
        if (!target.equals("p4sim")) {
            throw Cli.usageError(spec, "--target: unknown target '" + target + "' (p4sim or bmv2)");
        }
        if (!switchApi.equals("direct") && !switchApi.equals("p4runtime")) {
            throw Cli.usageError(spec, "--switch-api must be direct or p4runtime, got '" + switchApi + "'");
        }
        if (behaviours < 0 || depth < 1) {
            throw Cli.usageError(spec, "--simulate must be >= 0 and --depth >= 1");
        }
        for (Path t : traces) {
            if (!Files.exists(t)) {
                throw Cli.usageError(spec, "--traces: no such file or directory: " + t);
            }
        }
        Path root = Path.of(System.getProperty("innet.root", ".")).toAbsolutePath().normalize();
        Path outDir = out != null ? out.toAbsolutePath() : root.resolve(".cache/conformance").resolve(protocol);
        return run(root, p, conformance, outDir, System.out);
    }

    int run(Path root, Protocol p, SpecConformance conformance, Path outDir, PrintStream stdout) throws Exception {
        Path program = root.resolve(p.p4Program());
        P4Coverage p4Coverage = new P4Coverage();
        ConformanceSuite suite = new ConformanceSuite(root, conformance, switchApi.equals("p4runtime")
                ? P4RuntimeReplayTarget.factory(root, program, seed, p4Coverage)
                : P4simReplayTarget.factory(root, program, seed, p4Coverage), outDir);
        Map<String, TraceCase> cases = new LinkedHashMap<>();
        List<Path> files = new ArrayList<>();
        List<Path> given = traces.isEmpty() ? List.of(root.resolve("conformance").resolve(protocol)) : traces;
        for (Path t : given) {
            if (Files.isDirectory(t)) {
                files.addAll(ConformanceSuite.traceFiles(t));
            } else if (Files.exists(t)) {
                files.add(t);
            }
        }
        for (Path f : files) {
            cases.put(f.getFileName().toString(), TraceCase.read(f));
        }
        if (behaviours > 0) {
            for (String model : models.isEmpty() ? conformance.conformanceModels() : models) {
                List<TraceCase> generated = suite.simulate(model, behaviours, depth, seed);
                for (int i = 0; i < generated.size(); i++) {
                    cases.put(model + "-seed" + seed + "-" + i, generated.get(i));
                }
            }
        }
        stdout.printf("innet conform: %s on %s (%s), switch API %s, %d traces%n", p.name(), target, p.p4Program(), switchApi,
                cases.size());
        ConformanceSuite.Report report = suite.run(cases, stdout);
        p4Coverage.report(root, outDir, stdout);
        return report.failed() > 0 ? 1 : 0;
    }
}
