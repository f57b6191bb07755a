package dev.innet.app;

import dev.innet.cli.Cli;
import dev.innet.conformance.Bmv2ReplayTarget;
import dev.innet.conformance.ConformanceSuite;
import dev.innet.conformance.P4Coverage;
import dev.innet.conformance.P4RuntimeReplayTarget;
import dev.innet.conformance.P4simReplayTarget;
import dev.innet.protocol.Protocol;
import dev.innet.protocol.ProtocolRegistry;
import dev.innet.p4sim.bmv2.Bmv2Tools;
import dev.innet.protocol.spec.ReplayTarget;
import dev.innet.protocol.spec.SpecConformance;
import dev.innet.tracegen.TraceCase;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
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

    @Option(names = "--protocol", description = "a registered protocol with a spec replay, or all: every such protocol "
            + "in turn, in one JVM, each with its own curated traces and models (default ${DEFAULT-VALUE})")
    String protocol = "farreach";

    /** {@code --protocol all}: every registered protocol with a spec replay. */
    static final String ALL = "all";

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

    @Option(names = "--bmv2-wait", paramLabel = "MS",
            description = "--target bmv2: how long to wait for a frame's first output before taking it as dropped (default ${DEFAULT-VALUE})")
    long bmv2WaitMillis = 300;

    @Option(names = "--bmv2-quiet", paramLabel = "MS",
            description = "--target bmv2: a step is over once no frame has come out for this long (default ${DEFAULT-VALUE})")
    long bmv2QuietMillis = 60;

    @Option(names = "--bmv2-ports", split = ",", paramLabel = "PORT",
            description = "--target bmv2: the switch ports to cable (default: 1-8, 64 and ptf/PROGRAM/PORTS)")
    List<Integer> bmv2Ports = List.of();

    @Option(names = "--out", description = "generated and failing traces (default: .cache/conformance/PROTOCOL)")
    Path out;

    /** Where --target bmv2 looks for p4c, simple_switch and simple_switch_CLI (a PATH value; tests set their own). */
    String toolSearchPath = System.getenv("PATH");

    public static void main(String[] args) {
        Cli.main("innet conform", new ConformMain(), args);
    }

    /** The options a failed trace's reproduce line needs to replay it as this run did: protocol, target, switch API. */
    String reproduceOptions() {
        StringBuilder sb = new StringBuilder("--protocol ").append(protocol);
        if (target.equals("bmv2")) {
            sb.append(" --target bmv2 --bmv2-wait ").append(bmv2WaitMillis).append(" --bmv2-quiet ").append(bmv2QuietMillis);
            if (!bmv2Ports.isEmpty()) {
                sb.append(" --bmv2-ports ").append(String.join(",", bmv2Ports.stream().map(String::valueOf).toList()));
            }
        }
        if (!switchApi.equals("direct")) {
            sb.append(" --switch-api ").append(switchApi);
        }
        return sb.toString();
    }

    @Override
    public Integer call() throws Exception {
        if (protocol.equals(ALL)) {
            return callForEveryProtocol();
        }
        Protocol p;
        try {
            p = ProtocolRegistry.byName(protocol);
        } catch (IllegalArgumentException e) {
            throw Cli.usageError(spec, "--protocol: " + e.getMessage());
        }
        SpecConformance conformance = p.conformance()
                .orElseThrow(() -> Cli.usageError(spec, "--protocol: " + protocol + " has no spec replay yet"));
        if (!target.equals("p4sim") && !target.equals("bmv2")) {
            throw Cli.usageError(spec, "--target: unknown target '" + target + "' (p4sim or bmv2)");
        }
        if (!switchApi.equals("direct") && !switchApi.equals("p4runtime")) {
            throw Cli.usageError(spec, "--switch-api must be direct or p4runtime, got '" + switchApi + "'");
        }
        if (target.equals("bmv2") && switchApi.equals("p4runtime")) {
            throw Cli.usageError(spec, "--switch-api p4runtime is p4sim's P4Runtime server; bmv2 is driven through "
                    + "simple_switch_CLI (simple_switch_grpc is not driven yet)");
        }
        if (behaviours < 0 || depth < 1) {
            throw Cli.usageError(spec, "--simulate must be >= 0 and --depth >= 1");
        }
        if (bmv2WaitMillis < 1 || bmv2QuietMillis < 1) {
            throw Cli.usageError(spec, "--bmv2-wait and --bmv2-quiet must be >= 1 ms");
        }
        if (bmv2Ports.stream().anyMatch(port -> port < 0 || port > 510)) {
            throw Cli.usageError(spec, "--bmv2-ports: bmv2 ports are 0..510 (511 is its drop port)");
        }
        for (Path t : traces) {
            if (!Files.exists(t)) {
                throw Cli.usageError(spec, "--traces: no such file or directory: " + t);
            }
        }
        Path root = Path.of(System.getProperty("innet.root", ".")).toAbsolutePath().normalize();
        Path outDir = out != null ? out.toAbsolutePath() : root.resolve(".cache/conformance").resolve(protocol);
        if (target.equals("bmv2")) {
            return runOnBmv2(root, p, conformance, outDir, toolSearchPath, System.out, spec.commandLine().getErr());
        }
        return run(root, p, conformance, outDir, System.out);
    }

    /**
     * {@code --protocol all}: each protocol with a spec replay in turn, as {@code --protocol NAME} would run it, then
     * one line per protocol. One JVM for all of them (verify's bounded conformance stage) rather than a JVM per
     * protocol: on 2 cores the seven JVMs' start-up and JIT warm-up were a fifth of the stage. Options that name
     * one protocol's files (--traces, --model, --out) are refused with it.
     */
    private int callForEveryProtocol() throws Exception {
        if (!traces.isEmpty() || !models.isEmpty() || out != null) {
            throw Cli.usageError(spec, "--protocol all runs each protocol's own traces and models into its own "
                    + ".cache/conformance/PROTOCOL: --traces, --model and --out name one protocol's and cannot go with it");
        }
        List<String> names = ProtocolRegistry.all().stream().filter(p -> p.conformance().isPresent()).map(Protocol::name).toList();
        Map<String, Integer> statuses = new LinkedHashMap<>();
        try {
            for (String name : names) {
                protocol = name;
                try {
                    statuses.put(name, call());
                } catch (picocli.CommandLine.ParameterException e) {
                    throw e; // the same options for every protocol: wrong for the first, wrong for all
                } catch (Exception e) {
                    // one protocol's failure (a TLC error, say) does not hide the others' results
                    System.out.println("innet conform: " + name + ": " + e);
                    statuses.put(name, 1);
                }
                System.out.println();
            }
        } finally {
            protocol = ALL;
        }
        statuses.forEach((name, status) -> System.out.printf("innet conform: %-14s %s%n", name,
                status == 0 ? "passed" : status == 3 ? "not run (exit 3)" : "FAILED (exit " + status + ")"));
        return statuses.values().stream().mapToInt(Integer::intValue).max().orElse(0);
    }

    int run(Path root, Protocol p, SpecConformance conformance, Path outDir, PrintStream stdout) throws Exception {
        P4Coverage p4Coverage = new P4Coverage();
        Path program = root.resolve(p.p4Program());
        int status = replay(root, p, conformance, outDir, switchApi.equals("p4runtime")
                ? P4RuntimeReplayTarget.factory(root, program, seed, p4Coverage)
                : P4simReplayTarget.factory(root, program, seed, p4Coverage), stdout);
        p4Coverage.report(root, outDir, stdout);
        return status;
    }

    /**
     * The same replay on bmv2: simple_switch running what p4c made of the same P4 source (Bmv2ReplayTarget).
     * Exit 3, before anything is made, when a tool is missing from {@code searchPath} (as {@code ptf --target bmv2}).
     * bmv2 has no P4 coverage probes, so there is no coverage report.
     */
    int runOnBmv2(Path root, Protocol p, SpecConformance conformance, Path outDir, String searchPath, PrintStream stdout,
            PrintWriter stderr) throws Exception {
        Bmv2Tools tools;
        try {
            tools = Bmv2Tools.find(searchPath);
        } catch (Bmv2Tools.Missing e) {
            stderr.println("innet conform: " + e.getMessage());
            return 3;
        }
        Path program = root.resolve(p.p4Program());
        List<Integer> ports = bmv2Ports.isEmpty() ? defaultBmv2Ports(root, program) : List.copyOf(bmv2Ports);
        try (Bmv2ReplayTarget.Rig rig = new Bmv2ReplayTarget.Rig(tools, root, program, ports,
                Duration.ofMillis(bmv2WaitMillis), Duration.ofMillis(bmv2QuietMillis), outDir.resolve("bmv2"))) {
            int status = replay(root, p, conformance, outDir, rig.factory(), stdout);
            stdout.printf("bmv2: %d simple_switch processes started (ports %s; first-frame wait %d ms, quiet gap %d ms); "
                    + "no P4 coverage on bmv2; logs in %s%n", rig.switchesStarted(), ports, bmv2WaitMillis, bmv2QuietMillis,
                    outDir.resolve("bmv2"));
            return status;
        }
    }

    /**
     * Host ports 1..8 (the replays' racks put host h on port h) and every port the program's PTF tests cable
     * (ptf/PROGRAM/PORTS: the CPU port 64 and the program's own, e.g. DistCache's 10, 20, 21).
     */
    static List<Integer> defaultBmv2Ports(Path root, Path program) throws java.io.IOException {
        java.util.TreeSet<Integer> ports = new java.util.TreeSet<>();
        for (int h = 1; h <= 8; h++) {
            ports.add(h);
        }
        ports.add(dev.innet.protocol.RackPorts.CPU_PORT);
        Path portsFile = root.resolve("ptf").resolve(program.getFileName().toString().replaceFirst("\\.p4$", "")).resolve("PORTS");
        if (Files.isRegularFile(portsFile)) {
            for (String w : Files.readString(portsFile).trim().split("\\s+")) {
                ports.add(Integer.parseInt(w));
            }
        }
        return List.copyOf(ports);
    }

    private int replay(Path root, Protocol p, SpecConformance conformance, Path outDir, Supplier<ReplayTarget> targets,
            PrintStream stdout) throws Exception {
        ConformanceSuite suite = new ConformanceSuite(root, conformance, targets, outDir, reproduceOptions());
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
        return report.failed() > 0 ? 1 : 0;
    }
}
