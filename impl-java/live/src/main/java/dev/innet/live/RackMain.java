package dev.innet.live;

import dev.innet.cli.Cli;
import dev.innet.p4sim.bmv2.Bmv2Tools;
import dev.innet.protocol.Protocol;
import dev.innet.protocol.ProtocolRegistry;
import dev.innet.tracecheck.TraceConversion;
import dev.innet.tracecheck.TraceConversions;
import dev.innet.tracecheck.TraceValidator;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code ./innet rack up|run|status|restart|events|validate|owners|down}: live racks of real processes on this machine
 * (docs/live-rack.md). Every subcommand acts on the rack's state directory
 * {@code .cache/rack/NAME/}, where {@code up} records what it makes.
 */
@Command(name = "rack", sortOptions = false, usageHelpAutoWidth = true,
        description = "Live racks of real processes in network namespaces around p4sim (docs/live-rack.md).",
        subcommands = {RackMain.Up.class, RackMain.Run.class, RackMain.Status.class, RackMain.Restart.class, RackMain.Down.class, RackMain.Owners.class,
                RackMain.Events.class, RackMain.Validate.class})
public final class RackMain implements Callable<Integer> {
    static final int EXIT_OK = 0;
    static final int EXIT_FAILED = 1;

    @Spec
    CommandSpec spec;

    @Option(names = "--root", paramLabel = "DIR", description = "the repository root (default: the innet.root property, else .)")
    Path root;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "show this help and exit")
    boolean help;

    final PrintStream out;
    final PrintStream err;

    RackMain(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    public static void main(String[] args) {
        RackMain m = new RackMain(System.out, System.err);
        System.exit(Cli.run("rack", m, args, System.out, System.err));
    }

    @Override
    public Integer call() {
        throw Cli.usageError(spec, "a subcommand is required: up, run, status, restart, events, validate, owners or down");
    }

    Path root() {
        if (root != null) {
            return root.toAbsolutePath().normalize();
        }
        return Path.of(System.getProperty("innet.root", ".")).toAbsolutePath().normalize();
    }

    Path stateDir(String name) {
        return root().resolve(".cache").resolve("rack").resolve(name);
    }

    /** The layout recorded by {@code up} (a rack's shape is its plan's, not the command line's). */
    RackLayout recordedLayout(CommandSpec sub, String name) {
        Path planFile = stateDir(name).resolve("plan.txt");
        if (!Files.exists(planFile)) {
            throw Cli.usageError(sub, "rack '" + name + "' is not up (no " + planFile + ")");
        }
        RackPlan plan = RackPlan.read(planFile);
        return RackLayout.of(name, stateDir(name), Integer.parseInt(plan.setting("servers")),
                Integer.parseInt(plan.setting("clients")));
    }

    /** The plan of a rack that is up, or was brought down (plan.down.txt): its trace events outlive rack down. */
    RackPlan planUpOrDown(CommandSpec sub, String name) {
        Path state = stateDir(name);
        Path plan = Files.exists(state.resolve("plan.txt")) ? state.resolve("plan.txt") : state.resolve("plan.down.txt");
        if (!Files.exists(plan)) {
            throw Cli.usageError(sub, "no rack '" + name + "' under " + state);
        }
        return RackPlan.read(plan);
    }

    RackLayout layoutOf(String name, RackPlan plan) {
        return RackLayout.of(name, stateDir(name), Integer.parseInt(plan.setting("servers")),
                Integer.parseInt(plan.setting("clients")));
    }

    static String checkedName(CommandSpec sub, String name) {
        try {
            RackLayout.requireName(name);
            return name;
        } catch (IllegalArgumentException e) {
            throw Cli.usageError(sub, "--name: " + e.getMessage());
        }
    }

    @Command(name = "up", sortOptions = false, usageHelpAutoWidth = true,
            description = "Create namespaces and links, start p4sim and one process per host, wait until all are healthy.")
    static final class Up implements Callable<Integer> {
        @ParentCommand
        RackMain parent;
        @Spec
        CommandSpec spec;

        @Option(names = "--name", paramLabel = "NAME", description = "the rack's name (default: ${DEFAULT-VALUE})")
        String name = "rack";
        @Option(names = "--protocol", required = true, paramLabel = "NAME", description = "a registered protocol")
        String protocol;
        @Option(names = "--servers", paramLabel = "N", description = "storage servers (default: ${DEFAULT-VALUE})")
        int servers = 2;
        @Option(names = "--clients", paramLabel = "N", description = "client hosts (default: ${DEFAULT-VALUE})")
        int clients = 2;
        @Option(names = "--target", paramLabel = "p4sim|bmv2", description = "the switch (default: ${DEFAULT-VALUE})")
        String target = "p4sim";
        @Option(names = "--control", paramLabel = "cli|p4runtime", description = "how the controller programs the switch: "
                + "p4sim's CLI port, or P4Runtime (p4sim serves it on port " + RackLayout.SWITCH_P4RUNTIME_PORT
                + "; not with --target bmv2) (default: ${DEFAULT-VALUE})")
        String control = "cli";
        @Option(names = "--seed", paramLabel = "S", description = "seed of the switch and the hosts (default: ${DEFAULT-VALUE})")
        long seed = 1;
        @Option(names = "--timeout", paramLabel = "SECONDS", description = "how long to wait for every host to be healthy (default: ${DEFAULT-VALUE})")
        int timeoutSeconds = 90;
        /** Test-only: servers with a known bug (HostMain --seeded-bug), for the campaign that must come out invalid. */
        @Option(names = "--seeded-bug", hidden = true)
        String seededBug = "";
        @Option(names = "--campaign-shape", description = "run the protocol in the shape its simulated campaigns use "
                + "(./innet sim): for the visibility layer, keys colliding in 8 switch slots under 4 fingerprints, so "
                + "the fallback and key-validation paths are taken; the other protocols have no such shape")
        boolean campaignShape;
        @Option(names = "--trace-events", description = "every host writes the protocol's trace events (the spec "
                + "actions it takes, as in the simulator) to trace-events/h<host>.ndjson under the rack's state directory")
        boolean traceEvents;
        @Option(names = {"-h", "--help"}, usageHelp = true, description = "show this help and exit")
        boolean help;

        @Override
        public Integer call() throws Exception {
            checkedName(spec, name);
            Protocol p;
            RackLayout layout;
            try {
                p = ProtocolRegistry.byName(protocol);
                layout = RackLayout.of(name, parent.stateDir(name), servers, clients);
                HostMain.withSeededBug(p, seededBug); // refuses a protocol whose servers cannot have the bug
            } catch (IllegalArgumentException e) {
                throw Cli.usageError(spec, e.getMessage());
            }
            if (timeoutSeconds < 1) {
                throw Cli.usageError(spec, "--timeout must be at least 1 second, got " + timeoutSeconds);
            }
            Bmv2Tools bmv2 = null;
            switch (target) {
                case "p4sim" -> { }
                case "bmv2" -> {
                    try {
                        bmv2 = Bmv2Tools.find(System.getenv("PATH"));
                    } catch (Bmv2Tools.Missing e) {
                        parent.err.println("rack up: " + e.getMessage());
                        return EXIT_FAILED;
                    }
                }
                default -> throw Cli.usageError(spec, "--target must be p4sim or bmv2, got '" + target + "'");
            }
            if (!control.equals("cli") && !control.equals("p4runtime")) {
                throw Cli.usageError(spec, "--control must be cli or p4runtime, got '" + control + "'");
            }
            if (control.equals("p4runtime") && bmv2 != null) {
                throw Cli.usageError(spec, "--control p4runtime needs --target p4sim: the bmv2 driver programs simple_switch "
                        + "through simple_switch_CLI (simple_switch_grpc is not driven yet)");
            }
            for (String tool : List.of("ip", "ethtool", "setsid")) {
                if (!Commands.onPath(tool)) {
                    parent.err.println("rack up: " + tool + " is not on PATH (./innet rack installs iproute2 and ethtool "
                            + "when it can: apt-get install iproute2 ethtool util-linux)");
                    return EXIT_FAILED;
                }
            }
            if (!Files.isRegularFile(parent.root().resolve(p.p4Program()))) {
                throw Cli.usageError(spec, "no " + p.p4Program() + " under " + parent.root() + " (--root)");
            }
            String java = ProcessHandle.current().info().command().orElse("java");
            if (!seededBug.isEmpty() && !HostMain.SEEDED_BUGS.contains(seededBug)) {
                throw Cli.usageError(spec, "--seeded-bug must be one of " + HostMain.SEEDED_BUGS + ", got '" + seededBug + "'");
            }
            if (Protocol.SEEDED_PROGRAM_BUGS.contains(seededBug)) {
                try {
                    RackUp.seededProgram(p, seededBug, Files.readString(parent.root().resolve(p.p4Program())));
                } catch (IllegalArgumentException e) {
                    throw Cli.usageError(spec, e.getMessage());
                }
            }
            RackUp.Settings settings = new RackUp.Settings(parent.root(), layout, p, seed, timeoutSeconds * 1000L, java,
                    RackUp.absoluteClassPath(System.getProperty("java.class.path")), seededBug, traceEvents, bmv2,
                    control.equals("p4runtime"), campaignShape);
            RackUp up;
            try {
                up = new RackUp(settings, parent.out);
            } catch (IllegalArgumentException e) {
                throw Cli.usageError(spec, e.getMessage());
            }
            try {
                up.up();
                return EXIT_OK;
            } catch (RackUp.NotUp e) {
                parent.err.println("rack up: " + e.getMessage());
                return EXIT_FAILED;
            } catch (IllegalStateException e) {
                parent.err.println("rack up: " + e.getMessage());
                return EXIT_FAILED;
            }
        }
    }

    @Command(name = "run", sortOptions = false, usageHelpAutoWidth = true,
            description = "Run a workload on every client of a rack that is up, write its history and check it with porcupine.")
    static final class Run implements Callable<Integer> {
        @ParentCommand
        RackMain parent;
        @Spec
        CommandSpec spec;

        @Option(names = "--name", paramLabel = "NAME", description = "the rack's name (default: ${DEFAULT-VALUE})")
        String name = "rack";
        @Option(names = "--ops", paramLabel = "N", description = "operations in all, split over the clients (default: ${DEFAULT-VALUE})")
        int ops = 400;
        @Option(names = "--keys", paramLabel = "K", description = "keys (default: ${DEFAULT-VALUE})")
        int keys = 8;
        @Option(names = "--time", paramLabel = "SECONDS", description = "stop issuing after this long (then --ops is a cap; default: none)")
        int timeSeconds;
        @Option(names = "--rate", paramLabel = "OPS_PER_S", description = "target operations per second, all clients together (default: as fast as they go)")
        int rate;
        @Option(names = "--timeout", paramLabel = "SECONDS", description = "bound on the whole run (default: ${DEFAULT-VALUE})")
        int timeoutSeconds = 300;
        @Option(names = "--lincheck", paramLabel = "FILE", description = "the porcupine checker (default: .cache/bin/lincheck under the root)")
        Path lincheck;
        @Option(names = "--no-check", description = "only write the history")
        boolean noCheck;
        @Option(names = "--no-final-reads", description = "only the workload (a campaign heals its faults, then runs --final-reads-only)")
        boolean noFinalReads;
        @Option(names = "--final-reads-only", description = "only the final reads: one read of every key by the first client")
        boolean finalReadsOnly;
        @Option(names = {"-h", "--help"}, usageHelp = true, description = "show this help and exit")
        boolean help;

        @Override
        public Integer call() throws Exception {
            checkedName(spec, name);
            if (ops < 1 || keys < 1 || timeoutSeconds < 1) {
                throw Cli.usageError(spec, "--ops, --keys and --timeout must be positive");
            }
            if (timeSeconds < 0 || rate < 0) {
                throw Cli.usageError(spec, "--time and --rate must not be negative");
            }
            if (noFinalReads && finalReadsOnly) {
                throw Cli.usageError(spec, "--no-final-reads and --final-reads-only exclude each other");
            }
            RackRun.Phases phases = noFinalReads ? RackRun.Phases.WORKLOAD
                    : finalReadsOnly ? RackRun.Phases.FINAL_READS : RackRun.Phases.BOTH;
            Path checker = lincheck != null ? lincheck : parent.root().resolve(".cache/bin/lincheck");
            if (!noCheck && !Files.isExecutable(checker)) {
                throw Cli.usageError(spec, "no porcupine checker at " + checker + " (./innet setup builds it; or --no-check)");
            }
            RackLayout layout = parent.recordedLayout(spec, name);
            RackRun.Result r;
            try {
                r = RackRun.run(layout, ops, keys, timeSeconds * 1000L, rate, phases, timeoutSeconds * 1000L, parent.out);
            } catch (IllegalStateException | IllegalArgumentException | IOException e) {
                parent.err.println("rack run: " + e.getMessage());
                return EXIT_FAILED;
            }
            parent.out.println("rack run: history " + r.history());
            if (noCheck) {
                return EXIT_OK;
            }
            return check(checker, r.history());
        }

        /** Porcupine's verdict is the exit status: 0 linearizable, 1 not, 2 unknown (docs/lincheck.md). */
        private int check(Path checker, Path history) throws IOException, InterruptedException {
            Path html = history.resolveSibling(history.getFileName().toString().replace(".jsonl", ".html"));
            Process p = new ProcessBuilder(checker.toString(), "-timeout", "60s", "-html", html.toString(), history.toString())
                    .redirectErrorStream(true).start();
            String text = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(120, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                parent.err.println("rack run: lincheck did not finish");
                return 2;
            }
            parent.out.print(text);
            return p.exitValue();
        }
    }

    @Command(name = "events", sortOptions = false, usageHelpAutoWidth = true,
            description = "Merge the hosts' trace events (rack up --trace-events) into one NDJSON run in time order.")
    static final class Events implements Callable<Integer> {
        @ParentCommand
        RackMain parent;
        @Spec
        CommandSpec spec;

        @Option(names = "--name", paramLabel = "NAME", description = "the rack's name (default: ${DEFAULT-VALUE})")
        String name = "rack";
        @Option(names = "--out", required = true, paramLabel = "FILE", description = "where the merged run goes")
        Path outFile;
        @Option(names = {"-h", "--help"}, usageHelp = true, description = "show this help and exit")
        boolean help;

        @Override
        public Integer call() throws InterruptedException {
            checkedName(spec, name);
            RackPlan recorded = parent.planUpOrDown(spec, name);
            if (!recorded.settingOr("trace-events", "").equals("yes")) {
                parent.err.println("rack events: rack '" + name + "' was brought up without --trace-events");
                return EXIT_FAILED;
            }
            RackLayout layout = parent.layoutOf(name, recorded);
            try {
                List<String> merged = TraceEventsMerge.mergeLive(TraceEventsMerge.filesOf(layout));
                Files.write(outFile, merged);
                parent.out.println("rack events: " + merged.size() + " events from "
                        + TraceEventsMerge.filesOf(layout).size() + " hosts -> " + outFile);
                return EXIT_OK;
            } catch (IllegalArgumentException | java.io.UncheckedIOException e) {
                parent.err.println("rack events: " + e.getMessage());
                return EXIT_FAILED;
            } catch (java.io.IOException e) {
                parent.err.println("rack events: writing " + outFile + ": " + e.getMessage());
                return EXIT_FAILED;
            }
        }
    }

    @Command(name = "validate", sortOptions = false, usageHelpAutoWidth = true,
            description = "Trace validation of the rack's run (rack up --trace-events): merge the switch's and the hosts' "
                    + "trace events, convert them with the protocol's converter and let TLC decide whether the protocol's "
                    + "trace spec admits the run (docs/live-rack.md). Exit 0 accepted, 1 rejected, 3 unknown (events "
                    + "that cannot be read or converted, a TLC error or timeout), 2 bad arguments.")
    static final class Validate implements Callable<Integer> {
        static final int EXIT_ACCEPTED = 0;
        static final int EXIT_REJECTED = 1;
        static final int EXIT_UNKNOWN = 3;

        @ParentCommand
        RackMain parent;
        @Spec
        CommandSpec spec;

        @Option(names = "--name", paramLabel = "NAME", description = "the rack's name (default: ${DEFAULT-VALUE})")
        String name = "rack";
        @Option(names = "--timeout", paramLabel = "SECONDS", description = "TLC's time limit (default: ${DEFAULT-VALUE})")
        int timeoutSeconds = 300;
        @Option(names = {"-h", "--help"}, usageHelp = true, description = "show this help and exit")
        boolean help;

        @Override
        public Integer call() throws Exception {
            checkedName(spec, name);
            if (timeoutSeconds < 1) {
                throw Cli.usageError(spec, "--timeout must be at least 1 second, got " + timeoutSeconds);
            }
            RackPlan recorded = parent.planUpOrDown(spec, name);
            String protocol = recorded.setting("protocol");
            if (!TraceConversions.covers(protocol)) {
                throw Cli.usageError(spec, "rack '" + name + "' runs " + protocol + ", which has no trace validation (protocols with one: "
                        + TraceConversions.all().stream().map(TraceConversion::protocol).toList() + ")");
            }
            if (!recorded.settingOr("trace-events", "").equals("yes")) {
                throw Cli.usageError(spec, "rack '" + name + "' was brought up without --trace-events: there is no run to validate");
            }
            TraceConversion conversion = TraceConversions.of(protocol);
            RackLayout layout = parent.layoutOf(name, recorded);
            LiveRunValidation.Outcome o;
            try {
                o = LiveRunValidation.validate(layout, conversion, parent.root().resolve(conversion.specDirectory()),
                        Duration.ofSeconds(timeoutSeconds), restartedServers(recorded));
            } catch (IllegalArgumentException | UncheckedIOException e) {
                parent.err.println("rack validate: unknown: " + e.getMessage());
                return EXIT_UNKNOWN;
            }
            parent.out.println("rack validate: " + o.files() + " trace-event files merged into " + o.run());
            if (!o.switchFrames()) {
                parent.out.println("rack validate: note: no switch frame events (" + layout.traceEventsOf(0).getFileName()
                        + ", p4sim --trace-frames): client steps are placed at their send times, which a live rack does not "
                        + "keep in the switch's order");
            }
            TraceValidator.Result r = o.result();
            parent.out.println("rack validate: " + protocol + " run " + r.summary());
            return switch (r.verdict()) {
                case ACCEPTED -> EXIT_ACCEPTED;
                case REJECTED -> {
                    parent.out.println("rack validate: the event: " + o.line(r.failedLine()));
                    parent.out.println("rack validate: model and TLC's log: " + r.model().getParent());
                    yield EXIT_REJECTED;
                }
                case UNKNOWN -> EXIT_UNKNOWN;
            };
        }
    }

    /** Server processes the plan records more than once: started again by rack restart. */
    static List<String> restartedServers(RackPlan plan) {
        java.util.Map<String, Long> starts = plan.processes().stream().filter(p -> p.name().startsWith("server-"))
                .collect(java.util.stream.Collectors.groupingBy(RackPlan.Process::name, java.util.TreeMap::new,
                        java.util.stream.Collectors.counting()));
        return starts.entrySet().stream().filter(e -> e.getValue() > 1).map(java.util.Map.Entry::getKey).toList();
    }

    @Command(name = "owners", sortOptions = false, usageHelpAutoWidth = true,
            description = "Print which server owns each workload key (user0..userK-1): KEYHEX hN per line, by the "
                    + "key-value family's consistent-hash ring over the rack's servers, as the clients spread keys. "
                    + "Campaigns use it to model a volatile server's restart as the loss of its keys (docs/jepsen.md).")
    static final class Owners implements Callable<Integer> {
        @ParentCommand
        RackMain parent;
        @Spec
        CommandSpec spec;

        @Option(names = "--name", paramLabel = "NAME", description = "the rack's name (default: ${DEFAULT-VALUE})")
        String name = "rack";
        @Option(names = "--keys", paramLabel = "K", description = "workload keys (default: ${DEFAULT-VALUE})")
        int keys = 8;
        @Option(names = {"-h", "--help"}, usageHelp = true, description = "show this help and exit")
        boolean help;

        @Override
        public Integer call() {
            checkedName(spec, name);
            if (keys < 1) {
                throw Cli.usageError(spec, "--keys must be at least 1, got " + keys);
            }
            RackLayout layout = parent.recordedLayout(spec, name);
            dev.innet.kv.ConsistentHashRing ring = new dev.innet.kv.ConsistentHashRing(layout.servers());
            for (int k = 0; k < keys; k++) {
                byte[] key = dev.innet.live.workload.WorkloadHost.keyOf(k);
                parent.out.println(java.util.HexFormat.of().formatHex(key) + " h" + ring.ownerOf(key));
            }
            return EXIT_OK;
        }
    }

    @Command(name = "status", sortOptions = false, usageHelpAutoWidth = true,
            description = "Show what a rack's plan records: processes (alive, health), namespaces.")
    static final class Status implements Callable<Integer> {
        @ParentCommand
        RackMain parent;
        @Spec
        CommandSpec spec;

        @Option(names = "--name", paramLabel = "NAME", description = "the rack's name (default: ${DEFAULT-VALUE})")
        String name = "rack";
        @Option(names = {"-h", "--help"}, usageHelp = true, description = "show this help and exit")
        boolean help;

        @Override
        public Integer call() {
            checkedName(spec, name);
            Path planFile = parent.stateDir(name).resolve("plan.txt");
            if (!Files.exists(planFile)) {
                parent.out.println("rack '" + name + "' is not up");
                return EXIT_FAILED;
            }
            RackPlan plan = RackPlan.read(planFile);
            RackLayout layout = parent.recordedLayout(spec, name);
            boolean allWell = true;
            parent.out.println("rack '" + name + "': protocol " + plan.setting("protocol") + ", state " + layout.stateDir());
            for (RackPlan.Process p : plan.currentProcesses()) {
                boolean alive = Pids.alive(p.pid(), p.startTicks());
                String health = "";
                if (p.name().contains("-h")) {
                    int h = Integer.parseInt(p.name().substring(p.name().lastIndexOf("-h") + 2));
                    health = alive ? "  " + Health.ask(layout, h) : "";
                    allWell &= alive && Health.ready(health.strip());
                } else {
                    allWell &= alive;
                }
                parent.out.printf("  %-16s pid %-8d %s%s%n", p.name(), p.pid(), alive ? "running" : "NOT RUNNING", health);
            }
            List<String> missing = new ArrayList<>();
            for (String ns : plan.namespaces()) {
                if (!Files.exists(RackDown.namespaceFile(ns))) {
                    missing.add(ns);
                }
            }
            parent.out.println("  namespaces: " + plan.namespaces().size() + (missing.isEmpty() ? ", all present" : ", missing " + missing));
            allWell &= missing.isEmpty();
            return allWell ? EXIT_OK : EXIT_FAILED;
        }
    }

    @Command(name = "restart", sortOptions = false, usageHelpAutoWidth = true,
            description = "Start again one recorded process that is not running (killed by a nemesis), with the same arguments; "
                    + "the plan records the new pid.")
    static final class Restart implements Callable<Integer> {
        @ParentCommand
        RackMain parent;
        @Spec
        CommandSpec spec;

        @Option(names = "--name", paramLabel = "NAME", description = "the rack's name (default: ${DEFAULT-VALUE})")
        String name = "rack";
        @Option(names = "--process", required = true, paramLabel = "PROCESS", description = "a recorded process: switch (switch-<name> in a rack of several switches), server-h1, controller-h254, client-h3, ...")
        String process;
        @Option(names = "--timeout", paramLabel = "SECONDS", description = "how long to wait until it is healthy again (default: ${DEFAULT-VALUE})")
        int timeoutSeconds = 60;
        @Option(names = {"-h", "--help"}, usageHelp = true, description = "show this help and exit")
        boolean help;

        @Override
        public Integer call() throws Exception {
            checkedName(spec, name);
            if (timeoutSeconds < 1) {
                throw Cli.usageError(spec, "--timeout must be at least 1 second, got " + timeoutSeconds);
            }
            RackLayout layout = parent.recordedLayout(spec, name);
            RackPlan plan = RackPlan.read(layout.planFile());
            Protocol p;
            try {
                p = ProtocolRegistry.byName(plan.setting("protocol"));
            } catch (IllegalArgumentException e) {
                throw Cli.usageError(spec, e.getMessage());
            }
            boolean campaignShape = plan.settingOr("campaign-shape", "").equals("yes");
            String java = ProcessHandle.current().info().command().orElse("java");
            RackUp.Settings settings = new RackUp.Settings(parent.root(), layout, p, Long.parseLong(plan.setting("seed")),
                    timeoutSeconds * 1000L, java, RackUp.absoluteClassPath(System.getProperty("java.class.path")),
                    plan.settingOr("seeded-bug", ""), plan.settingOr("trace-events", "").equals("yes"), recordedBmv2(plan),
                    plan.settingOr("control", "cli").equals("p4runtime"), campaignShape);
            try {
                RackPlan.Process started = new RackUp(settings, parent.out).restart(plan, process);
                parent.out.println("rack restart: " + process + " running again as pid " + started.pid());
                return EXIT_OK;
            } catch (IllegalArgumentException e) {
                throw Cli.usageError(spec, e.getMessage());
            } catch (RackUp.NotUp | IllegalStateException e) {
                parent.err.println("rack restart: " + e.getMessage());
                return EXIT_FAILED;
            }
        }
    }

    /** The bmv2 tools a rack brought up with --target bmv2 used (its plan records them); null for p4sim. */
    static Bmv2Tools recordedBmv2(RackPlan plan) {
        if (!plan.settingOr("target", "p4sim").equals("bmv2")) {
            return null;
        }
        return new Bmv2Tools(Path.of(plan.setting("bmv2-compiler")), Path.of(plan.setting("bmv2-switch")),
                Path.of(plan.setting("bmv2-cli")));
    }

    @Command(name = "down", sortOptions = false, usageHelpAutoWidth = true,
            description = "Stop every process and delete every namespace and link the rack's plan records (by pid and name).")
    static final class Down implements Callable<Integer> {
        @ParentCommand
        RackMain parent;
        @Spec
        CommandSpec spec;

        @Option(names = "--name", paramLabel = "NAME", description = "the rack's name (default: ${DEFAULT-VALUE})")
        String name = "rack";
        @Option(names = {"-h", "--help"}, usageHelp = true, description = "show this help and exit")
        boolean help;

        @Override
        public Integer call() throws InterruptedException {
            checkedName(spec, name);
            List<String> left = RackDown.down(parent.stateDir(name).resolve("plan.txt"), parent.out);
            if (!left.isEmpty()) {
                parent.err.println("rack down: could not remove " + left);
                return EXIT_FAILED;
            }
            return EXIT_OK;
        }
    }
}
