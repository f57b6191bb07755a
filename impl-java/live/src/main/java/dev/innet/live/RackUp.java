package dev.innet.live;

import dev.innet.protocol.Protocol;
import dev.innet.protocol.RackPorts;
import dev.innet.p4sim.bmv2.Bmv2Tools;
import dev.innet.sim.simulated.Simulation;
import dev.innet.verify.FileTrees;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Brings a live rack up on this machine: namespaces and veth links ({@link RackLayout}), p4sim on
 * AF_PACKET ports in the switch's namespace, then one process per host ({@link HostMain}); then waits,
 * bounded, until every host answers its health check with ready. Every namespace, link and process is
 * recorded in the plan before or as it is made, so a failure (here, or a crash of this process) is
 * undone by {@link RackDown} from the plan.
 */
public final class RackUp {
    /** The settings of one bring-up; {@code javaBinary} and {@code classPath} start every child JVM. */
    /**
     * {@code bmv2}: the switch is bmv2's simple_switch driven through these tools; null: p4sim (the default).
     * {@code p4runtime}: p4sim also serves P4Runtime ({@link RackLayout#SWITCH_P4RUNTIME_PORT}) and the controller
     * programs the switch through it (rack up --control p4runtime); false: through p4sim's CLI port (the default).
     * {@code campaignShape}: the rack runs {@code protocol} in {@link Protocol#forCampaigns()}'s shape (rack up
     * --campaign-shape), applied here, once, for every caller; every host is started with the same shape, and the
     * plan records it for restarts.
     */
    public record Settings(Path repositoryRoot, RackLayout layout, Protocol protocol, long seed, long healthTimeoutMillis,
            String javaBinary, String classPath, String seededBug, boolean traceEvents, Bmv2Tools bmv2, boolean p4runtime,
            boolean campaignShape) {
        public Settings {
            if (campaignShape) {
                protocol = protocol.forCampaigns();
            }
            if (p4runtime && bmv2 != null) {
                throw new IllegalArgumentException("--control p4runtime drives p4sim's P4Runtime server; with --target bmv2 "
                        + "the controller uses simple_switch_CLI (simple_switch_grpc is not driven yet)");
            }
        }

        public Settings(Path repositoryRoot, RackLayout layout, Protocol protocol, long seed, long healthTimeoutMillis,
                String javaBinary, String classPath, String seededBug, boolean traceEvents, Bmv2Tools bmv2, boolean p4runtime) {
            this(repositoryRoot, layout, protocol, seed, healthTimeoutMillis, javaBinary, classPath, seededBug, traceEvents, bmv2,
                    p4runtime, false);
        }

        public Settings(Path repositoryRoot, RackLayout layout, Protocol protocol, long seed, long healthTimeoutMillis,
                String javaBinary, String classPath, String seededBug, boolean traceEvents, Bmv2Tools bmv2) {
            this(repositoryRoot, layout, protocol, seed, healthTimeoutMillis, javaBinary, classPath, seededBug, traceEvents, bmv2, false);
        }

        public Settings(Path repositoryRoot, RackLayout layout, Protocol protocol, long seed, long healthTimeoutMillis,
                String javaBinary, String classPath, String seededBug, boolean traceEvents) {
            this(repositoryRoot, layout, protocol, seed, healthTimeoutMillis, javaBinary, classPath, seededBug, traceEvents, null);
        }

        public Settings(Path repositoryRoot, RackLayout layout, Protocol protocol, long seed, long healthTimeoutMillis,
                String javaBinary, String classPath) {
            this(repositoryRoot, layout, protocol, seed, healthTimeoutMillis, javaBinary, classPath, "");
        }

        public Settings(Path repositoryRoot, RackLayout layout, Protocol protocol, long seed, long healthTimeoutMillis,
                String javaBinary, String classPath, String seededBug) {
            this(repositoryRoot, layout, protocol, seed, healthTimeoutMillis, javaBinary, classPath, seededBug, false);
        }
    }

    /** Thrown when the rack did not come up; the message names the process and carries its log's tail. */
    public static final class NotUp extends Exception {
        NotUp(String message) {
            super(message);
        }
    }

    private static final String HOST_MAIN = "dev.innet.live.HostMain";
    private static final String SWITCH_MAIN = "dev.innet.p4sim.Main";
    /** p4sim with its P4Runtime options (the innet-p4runtime module), for --control p4runtime. */
    private static final String SWITCH_P4RUNTIME_MAIN = "dev.innet.p4runtime.Main";
    private static final int LOG_TAIL_LINES = 15;

    private final Settings s;
    private final RackLayout layout;
    private final RackSwitches switches;
    private final PrintStream out;
    private RackPlan plan;

    public RackUp(Settings settings, PrintStream out) {
        this.s = settings;
        this.layout = settings.layout();
        this.switches = RackSwitches.of(settings.protocol(), settings.layout());
        if (switches.several() && (settings.bmv2() != null || settings.p4runtime())) {
            throw new IllegalArgumentException(settings.protocol().name() + " runs on " + switches.names().size()
                    + " switches: its live rack runs p4sim with the controller on its CLI ports (--target bmv2 and --control "
                    + "p4runtime drive one switch only)");
        }
        this.out = out;
    }

    /**
     * Brings the rack up. On failure it tears down what it made and throws {@link NotUp}; the state
     * directory keeps the logs.
     */
    public void up() throws NotUp, InterruptedException {
        if (Files.exists(layout.planFile())) {
            throw new IllegalStateException("rack '" + layout.name() + "' is up already (" + layout.planFile()
                    + "): ./innet rack down --name " + layout.name() + " first");
        }
        requireServerProgram();
        freshStateDirectory();
        plan = RackPlan.create(layout.planFile());
        try {
            record();
            network();
            long started = System.nanoTime();
            startSwitch();
            startHosts();
            awaitHealthy();
            out.printf("rack up: %s rack '%s' is up in %.1f s (%d servers, %d clients, controller h%d; state %s)%n",
                    s.protocol().name(), layout.name(), (System.nanoTime() - started) / 1e9, layout.servers().size(),
                    layout.clients().size(), layout.controllerHost(), layout.stateDir());
        } catch (NotUp | RuntimeException e) {
            out.println("rack up: failed, tearing down what was made");
            List<String> left = RackDown.down(layout.planFile(), out);
            if (!left.isEmpty()) {
                out.println("rack up: could not remove " + left);
            }
            throw e;
        }
    }

    /** Durable files of an earlier rack of this name would be old data to a new history: start empty. */
    private void freshStateDirectory() {
        try {
            for (Path dir : List.of(layout.stateDir().resolve("hosts"), layout.logDir(), layout.socketDir(),
                    layout.historyDir(), layout.traceEventsOf(0).getParent())) {
                FileTrees.delete(dir);
            }
            Files.createDirectories(layout.logDir());
            Files.deleteIfExists(layout.stateDir().resolve("plan.down.txt"));
        } catch (IOException e) {
            throw new UncheckedIOException("preparing " + layout.stateDir(), e);
        }
    }

    private void record() {
        plan.setting("rack", layout.name());
        plan.setting("protocol", s.protocol().name());
        plan.setting("servers", Integer.toString(layout.servers().size()));
        plan.setting("clients", Integer.toString(layout.clients().size()));
        plan.setting("seed", Long.toString(s.seed()));
        plan.setting("target", s.bmv2() == null ? "p4sim" : "bmv2");
        plan.setting("control", s.p4runtime() ? "p4runtime" : "cli");
        if (s.bmv2() != null) {
            // rack restart starts the same switch again (RackMain.Restart reads these)
            plan.setting("bmv2-compiler", s.bmv2().compiler().toString());
            plan.setting("bmv2-switch", s.bmv2().simpleSwitch().toString());
            plan.setting("bmv2-cli", s.bmv2().cli().toString());
        }
        // what each role's processes listen on (the protocol's HostPorts): for status, logs and the campaigns
        plan.setting("ports", s.protocol().hostPorts().describe());
        // every switch's process and control port (one p4sim per switch of the protocol's topology)
        plan.setting("switches", switches.describe());
        if (!s.seededBug().isEmpty()) {
            // a test-only bug (HostMain --seeded-bug): recorded so a restarted server has it too
            plan.setting("seeded-bug", s.seededBug());
        }
        if (s.campaignShape()) {
            // recorded so that a restarted host takes the same shape (keys colliding, ...) as the others
            plan.setting("campaign-shape", "yes");
        }
        if (s.traceEvents()) {
            // recorded so that a restarted host writes its events too
            plan.setting("trace-events", "yes");
            if (s.bmv2() != null) {
                out.println("rack up: note: simple_switch records no switch frame events (p4sim's --trace-frames), so "
                        + "rack validate cannot place the clients' steps of this rack's runs");
            }
        }
        // what the campaigns' nemeses must know about the protocol (docs/jepsen.md, "Protocols")
        plan.setting("duplication-tolerated", s.protocol().toleratesDuplicatedPackets() ? "yes" : "no");
        s.protocol().externalServer().ifPresent(x -> {
            plan.setting("server-program", x.program());
            plan.setting("servers-durable", x.durable() ? "yes" : "no");
        });
    }

    /** The protocol's server program (memcached for LaKe) must be installed before anything is made. */
    private void requireServerProgram() {
        s.protocol().externalServer().ifPresent(x -> {
            if (Commands.which(x.program()).isEmpty()) {
                throw new IllegalStateException(s.protocol().name() + " racks run " + x.program() + " on their servers, and "
                        + x.program() + " is not on PATH: ./innet setup installs it as root (Debian package "
                        + x.debianPackage() + ")");
            }
        });
    }

    // ------------------------------------------------------------------ network

    private void network() {
        String sw = layout.switchNamespace();
        addNamespace(sw);
        batch(sw, List.of("link set lo up"));
        for (int h : layout.ownNamespaceHosts()) {
            String ns = layout.namespaceOf(h);
            addNamespace(ns);
            String switchEnd = switches.interfaceOfHost(h);
            plan.link(sw, switchEnd);
            Commands.run("ip", "link", "add", RackLayout.HOST_INTERFACE, "netns", ns, "type", "veth", "peer", "name",
                    switchEnd, "netns", sw);
            configureHostEnd(ns, h);
            batch(sw, List.of("link set " + switchEnd + " up"));
        }
        // the controller's link: both ends in the switch's namespace (ctl0 is the host's, p64 p4sim's)
        String controllerEnd = switches.interfaceOfHost(layout.controllerHost());
        plan.link(sw, RackLayout.CONTROLLER_INTERFACE);
        Commands.run("ip", "-n", sw, "link", "add", RackLayout.CONTROLLER_INTERFACE, "type", "veth", "peer", "name",
                controllerEnd);
        configureHostEnd(sw, layout.controllerHost());
        batch(sw, List.of("link set " + controllerEnd + " up"));
        // switch-to-switch cables (a network of several switches): both ends in the switch namespace, one
        // opened by each switch's p4sim; nothing of the kernel's runs on them (no addresses, no IPv6)
        for (String[] cable : switches.cableInterfaces()) {
            plan.link(sw, cable[0]);
            Commands.run("ip", "-n", sw, "link", "add", cable[0], "type", "veth", "peer", "name", cable[1]);
            batch(sw, List.of("link set " + cable[0] + " up", "link set " + cable[1] + " up"));
        }
    }

    private void addNamespace(String ns) {
        // before the plan records it: a namespace in use by another rack must not be torn down as ours
        LeftoverNamespaces.reclaimIfLeftover(ns, layout.name(), out);
        plan.namespace(ns);
        Commands.run("ip", "netns", "add", ns);
        // no IPv6 chatter (router solicitations) on the rack's links: p4sim would only count and drop it
        Commands.tryRun("ip", "netns", "exec", ns, "sysctl", "-qw", "net.ipv6.conf.all.disable_ipv6=1");
        Commands.tryRun("ip", "netns", "exec", ns, "sysctl", "-qw", "net.ipv6.conf.default.disable_ipv6=1");
    }

    /**
     * The host's end: its rack MAC and address, up, static neighbours for every other host (the P4
     * programs forward IPv4 only, so ARP would never be answered), and transmit checksum offload off: a
     * veth hands an offloaded packet over with its UDP checksum unfinished, p4sim forwards those bytes
     * as they are, and the receiving kernel would drop the datagram as corrupt.
     */
    private void configureHostEnd(String ns, int h) {
        String dev = layout.hostInterfaceOf(h);
        List<String> cmds = new ArrayList<>();
        cmds.add("link set lo up");
        cmds.add("link set " + dev + " address " + RackLayout.mac(h));
        cmds.add("addr add " + RackLayout.ip(h) + "/24 dev " + dev);
        cmds.add("link set " + dev + " up");
        for (int other : layout.allHosts()) {
            if (other != h) {
                cmds.add("neigh replace " + RackLayout.ip(other) + " lladdr " + RackLayout.mac(other) + " dev " + dev
                        + " nud permanent");
            }
        }
        batch(ns, cmds);
        Commands.run("ip", "netns", "exec", ns, "ethtool", "-K", dev, "tx", "off");
    }

    /** Runs {@code ip -n NS -batch FILE}: one process for many commands; the file stays in the state directory. */
    private void batch(String ns, List<String> cmds) {
        Path file = layout.stateDir().resolve("ip").resolve(ns + "-" + Integer.toHexString(cmds.hashCode()) + ".batch");
        try {
            Files.createDirectories(file.getParent());
            Files.writeString(file, String.join("\n", cmds) + "\n", StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("writing " + file, e);
        }
        Commands.run("ip", "-n", ns, "-batch", file.toString());
    }

    // ------------------------------------------------------------------ processes

    private void startSwitch() throws NotUp, InterruptedException {
        for (String sw : switches.names()) {
            startSwitchProcess(sw, false);
        }
    }

    private RackPlan.Process startSwitchProcess(String sw, boolean again) throws NotUp, InterruptedException {
        if (s.bmv2() != null) {
            return startBmv2Switch(again);
        }
        String name = switches.processOf(sw);
        String what = switches.several() ? "the switch " + sw + " (p4sim)" : "the switch (p4sim)";
        List<String> args = new ArrayList<>(List.of("--program", program().toString(),
                "-I", s.repositoryRoot().resolve("p4").toString(),
                "--control-port", Integer.toString(switches.controlPortOf(sw)), "--seed", Long.toString(s.seed())));
        for (Map.Entry<Integer, String> port : switches.portsOf(sw).entrySet()) {
            args.add("-i");
            args.add(port.getKey() + "@" + port.getValue());
        }
        if (s.traceEvents()) {
            // the switch's own events (host 0): where trace validation places the clients' steps (switchIn/switchOut),
            // or, for a protocol whose converter reads the switch's UDP frames (Protocol.tracesSwitchUdpFrames), the
            // steps of the switch themselves; a restarted switch appends to the same file. In a network of several
            // switches each p4sim writes its own file and names its switch in each line, as the simulator does.
            args.addAll(List.of("--trace-frames", (switches.several() ? layout.switchTraceEventsOf(sw)
                            : layout.traceEventsOf(Simulation.ENVIRONMENT_HOST)).toString(),
                    "--trace-clients", String.join(",", layout.clients().stream().map(String::valueOf).toList())));
            if (s.protocol().tracesSwitchUdpFrames()) {
                args.add("--trace-udp-frames");
            }
            if (switches.several()) {
                args.addAll(List.of("--trace-switch", sw));
            }
        }
        if (s.p4runtime()) {
            // the CLI port stays open too: the controller's SwitchWatch tells the switch's death by it
            args.addAll(List.of("--p4runtime-port", Integer.toString(RackLayout.SWITCH_P4RUNTIME_PORT),
                    "--device-id", Long.toString(RackLayout.SWITCH_P4RUNTIME_DEVICE_ID)));
        }
        long logFrom = again ? logSize(layout.logOf(name)) : 0;
        RackPlan.Process p = start(name, layout.switchNamespace(), s.p4runtime() ? SWITCH_P4RUNTIME_MAIN : SWITCH_MAIN,
                List.of("-Xmx512m"), args, again);
        // p4sim prints this line once its ports and control port are open (a restart appends to the log); the
        // P4Runtime server, when asked for, is up before it
        long deadline = System.nanoTime() + s.healthTimeoutMillis() * 1_000_000;
        while (!logContains(p.log(), logFrom, "p4sim: running")) {
            if (!Pids.alive(p.pid(), p.startTicks())) {
                throw new NotUp(what + " exited while starting; " + tail(p.log()));
            }
            if (System.nanoTime() > deadline) {
                throw new NotUp(what + " did not start within " + s.healthTimeoutMillis() + " ms; " + tail(p.log()));
            }
            Thread.sleep(100);
        }
        return p;
    }

    /**
     * The program p4sim runs: the protocol's, or with a seeded switch bug ({@link Protocol#withSeededProgramBug}) a copy
     * of it with the bug, written under the rack's state directory (p4sim finds its includes through {@code -I p4}).
     */
    private Path program() throws NotUp {
        Path program = s.repositoryRoot().resolve(s.protocol().p4Program());
        if (!Protocol.SEEDED_PROGRAM_BUGS.contains(s.seededBug())) {
            return program;
        }
        Path seeded = layout.stateDir().resolve("seeded").resolve(program.getFileName());
        try {
            Files.createDirectories(seeded.getParent());
            Files.writeString(seeded, seededProgram(s.protocol(), s.seededBug(), Files.readString(program)));
        } catch (java.io.IOException | IllegalArgumentException e) {
            throw new NotUp("writing " + program.getFileName() + " with the seeded bug " + s.seededBug() + ": " + e.getMessage());
        }
        return seeded;
    }

    /** {@code source} with {@code bug} seeded; a protocol whose program cannot have it is refused. */
    static String seededProgram(Protocol protocol, String bug, String source) {
        return protocol.withSeededProgramBug(bug, source).orElseThrow(() -> new IllegalArgumentException("--seeded-bug "
                + bug + ": " + protocol.name() + "'s switch program cannot have it (LaKe's can)"));
    }

    /**
     * {@code --target bmv2}: the program compiled by p4c to bmv2 JSON (once, at up: a restart reuses it), then
     * simple_switch on the same interfaces and port numbers as p4sim, its Thrift server on the port the
     * controller's simple_switch_CLI connects to. Ready when that port accepts a connection in the switch's
     * namespace.
     */
    private RackPlan.Process startBmv2Switch(boolean again) throws NotUp, InterruptedException {
        Path program = program();
        Path outDir = layout.stateDir().resolve("bmv2");
        Path json = Bmv2Tools.jsonOf(program, outDir);
        if (!again || !Files.isRegularFile(json)) {
            List<String> compile = s.bmv2().compileCommand(program, s.repositoryRoot().resolve("p4"), outDir);
            Path log = layout.logOf("p4c");
            try {
                Files.createDirectories(outDir);
                int code = new ProcessBuilder(compile).redirectErrorStream(true).redirectOutput(log.toFile()).start().waitFor();
                if (code != 0 || !Files.isRegularFile(json)) {
                    throw new NotUp("p4c could not compile " + program + " for bmv2 (" + String.join(" ", compile) + ", exit "
                            + code + "); " + tail(log));
                }
            } catch (IOException e) {
                throw new NotUp("cannot run " + compile.get(0) + ": " + e.getMessage());
            }
        }
        List<String> ports = new ArrayList<>();
        for (int h : layout.allHosts()) {
            ports.add(RackPorts.portOf(h) + "@" + layout.switchInterfaceOf(h));
        }
        RackPlan.Process p = startProcess("switch", layout.switchNamespace(),
                s.bmv2().switchCommand(ports, RackLayout.SWITCH_CONTROL_PORT, json), again);
        long deadline = System.nanoTime() + s.healthTimeoutMillis() * 1_000_000;
        while (!thriftPortOpen()) {
            if (!Pids.alive(p.pid(), p.startTicks())) {
                throw new NotUp("the switch (simple_switch) exited while starting; " + tail(p.log()));
            }
            if (System.nanoTime() > deadline) {
                throw new NotUp("the switch (simple_switch) did not open its Thrift port " + RackLayout.SWITCH_CONTROL_PORT
                        + " within " + s.healthTimeoutMillis() + " ms; " + tail(p.log()));
            }
            Thread.sleep(100);
        }
        return p;
    }

    /** Whether something accepts TCP connections on the switch's control port inside the switch's namespace. */
    private boolean thriftPortOpen() throws InterruptedException {
        try {
            return new ProcessBuilder("ip", "netns", "exec", layout.switchNamespace(), "bash", "-c",
                    "exec 3<>/dev/tcp/127.0.0.1/" + RackLayout.SWITCH_CONTROL_PORT)
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start().waitFor() == 0;
        } catch (IOException e) {
            return false;
        }
    }

    private void startHosts() {
        for (int h : layout.allHosts()) {
            startHost(h, false);
        }
    }

    private RackPlan.Process startHost(int h, boolean again) {
        if (layout.roleOf(h).equals("server") && s.protocol().externalServer().isPresent()) {
            return startExternalServer(h, s.protocol().externalServer().get(), again);
        }
        List<String> args = new ArrayList<>(List.of("--rack", layout.name(), "--state", layout.stateDir().toString(),
                "--protocol", s.protocol().name(), "--servers", Integer.toString(layout.servers().size()),
                "--clients", Integer.toString(layout.clients().size()), "--host", Integer.toString(h),
                "--seed", Long.toString(s.seed())));
        if (!s.seededBug().isEmpty() && layout.roleOf(h).equals("server")) {
            args.addAll(List.of("--seeded-bug", s.seededBug()));
        }
        if (s.campaignShape()) {
            args.add("--campaign-shape");
        }
        if (s.traceEvents()) {
            args.addAll(List.of("--trace-events", layout.traceEventsOf(h).toString()));
        }
        if (s.bmv2() != null && layout.roleOf(h).equals("controller")) {
            args.addAll(List.of("--switch-cli", s.bmv2().cli().toString()));
        }
        if (s.p4runtime() && layout.roleOf(h).equals("controller")) {
            args.addAll(List.of("--switch-p4runtime-port", Integer.toString(RackLayout.SWITCH_P4RUNTIME_PORT)));
        }
        return start(layout.roleOf(h) + "-h" + h, layout.namespaceOf(h), HOST_MAIN, List.of("-Xmx256m", "-XX:+UseSerialGC"),
                args, again);
    }

    /**
     * The protocol's own server program (memcached) on server host {@code h}, in the foreground, serving
     * the host's rack address only. Its health is answered by the controller, which probes it through
     * the switch (HostMain, {@code ExternalServerHealth}).
     */
    private RackPlan.Process startExternalServer(int h, dev.innet.protocol.ExternalServer server, boolean again) {
        List<String> cmd = new ArrayList<>(List.of(Commands.which(server.program()).orElse(server.program())));
        cmd.addAll(server.arguments(RackLayout.ip(h), Commands.runningAsRoot()));
        return startProcess(layout.roleOf(h) + "-h" + h, layout.namespaceOf(h), cmd, again);
    }

    /**
     * Starts again the recorded process {@code name} of the rack whose plan is {@code upPlan} (a nemesis
     * killed it), with the arguments {@code up} gave it, its output appended to the same log, and records
     * the new pid in the plan; returns once it is healthy again (a host answers ready; the switch has
     * opened its ports). Refuses a process that is still running or that the plan does not record.
     */
    public RackPlan.Process restart(RackPlan upPlan, String name) throws NotUp, InterruptedException {
        this.plan = upPlan;
        RackPlan.Process old = upPlan.currentProcesses().stream().filter(p -> p.name().equals(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("--process: rack '" + layout.name() + "' records no process '"
                        + name + "' (it has " + upPlan.currentProcesses().stream().map(RackPlan.Process::name).toList() + ")"));
        if (Pids.alive(old.pid(), old.startTicks())) {
            throw new IllegalStateException(name + " is still running as pid " + old.pid() + ": only a stopped process is restarted");
        }
        java.util.Optional<String> sw = switches.switchOfProcess(name);
        if (sw.isPresent()) {
            return startSwitchProcess(sw.get(), true);
        }
        int h = Integer.parseInt(name.substring(name.lastIndexOf("-h") + 2));
        forgetLostData(h);
        RackPlan.Process p = startHost(h, true);
        long deadline = System.nanoTime() + s.healthTimeoutMillis() * 1_000_000;
        String answer = "no answer yet";
        while (!Health.ready(answer = Health.ask(layout, h))) {
            if (!Pids.alive(p.pid(), p.startTicks())) {
                throw new NotUp(name + " exited while restarting; " + tail(p.log()));
            }
            if (System.nanoTime() > deadline) {
                throw new NotUp(name + " did not answer its health check with ready within " + s.healthTimeoutMillis()
                        + " ms after its restart (last answer: " + answer + "); " + tail(p.log()));
            }
            Thread.sleep(100);
        }
        return p;
    }

    /**
     * A server whose program keeps no data across a restart (memcached) comes back empty: before it
     * starts, the controller makes the switch forget what it cached from it, so that no answer from
     * the switch returns an item the server no longer has (docs/lake.md, "memcached restarts").
     * Without a controller that answers, the restart is refused: it would leave the switch stale.
     */
    private void forgetLostData(int h) throws NotUp {
        var server = s.protocol().externalServer();
        if (!layout.roleOf(h).equals("server") || server.isEmpty() || server.get().durable()) {
            return;
        }
        if (s.seededBug().equals("stale-restart")) {
            // the seeded bug (HostMain.SEEDED_BUGS): the switch keeps what the restarted server lost
            return;
        }
        String answer;
        try {
            answer = dev.innet.sim.live.CommandSocket.ask(layout.socketOf(layout.controllerHost()), "forget-server " + h, 15_000);
        } catch (IOException e) {
            answer = "no answer (" + e.getMessage() + ")";
        }
        if (!answer.startsWith("ok")) {
            throw new NotUp("server-h" + h + " (" + server.get().program() + ") is not restarted: it comes back empty, and the "
                    + "controller did not make the switch forget its items first: " + answer);
        }
    }

    /**
     * Starts a JVM inside namespace {@code ns}, in a session of its own (so a Ctrl-C on {@code rack up}
     * does not reach the rack), output to its log file (appended to when started {@code again}), and
     * records it. {@code ip netns exec} and {@code setsid} both exec their command, so the pid is the JVM's.
     */
    private RackPlan.Process start(String name, String ns, String main, List<String> jvmOptions, List<String> args,
            boolean again) {
        List<String> program = new ArrayList<>(List.of(s.javaBinary(), "--enable-native-access=ALL-UNNAMED"));
        program.addAll(jvmOptions);
        program.addAll(List.of("-cp", s.classPath(), main));
        program.addAll(args);
        return startProcess(name, ns, program, again);
    }

    /** Starts {@code program} (its command line) as {@link #start} starts a JVM, and records it. */
    private RackPlan.Process startProcess(String name, String ns, List<String> program, boolean again) {
        Path log = layout.logOf(name);
        List<String> cmd = new ArrayList<>(List.of("ip", "netns", "exec", ns, "setsid"));
        cmd.addAll(program);
        Process p;
        try {
            p = new ProcessBuilder(cmd).redirectErrorStream(true)
                    .redirectOutput(again ? ProcessBuilder.Redirect.appendTo(log.toFile()) : ProcessBuilder.Redirect.to(log.toFile()))
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
        } catch (IOException e) {
            throw new UncheckedIOException("starting " + name, e);
        }
        long ticks = Pids.startTicks(p.pid()).orElseThrow(() -> new IllegalStateException(name + " exited at once; see " + log));
        RackPlan.Process rec = new RackPlan.Process(name, p.pid(), ticks, log);
        plan.process(rec);
        return rec;
    }

    // ------------------------------------------------------------------ health

    private void awaitHealthy() throws NotUp, InterruptedException {
        long deadline = System.nanoTime() + s.healthTimeoutMillis() * 1_000_000;
        Map<Integer, String> lastAnswer = new LinkedHashMap<>();
        for (int h : layout.allHosts()) {
            lastAnswer.put(h, "no answer yet");
        }
        while (true) {
            for (int h : List.copyOf(lastAnswer.keySet())) {
                String answer = Health.ask(layout, h);
                if (Health.ready(answer)) {
                    lastAnswer.remove(h);
                    out.println("rack up: h" + h + " healthy: " + answer);
                } else {
                    lastAnswer.put(h, answer);
                }
            }
            for (RackPlan.Process p : plan.processes()) {
                if (!Pids.alive(p.pid(), p.startTicks())) {
                    throw new NotUp(p.name() + " exited while the rack was coming up; " + tail(p.log()));
                }
            }
            if (lastAnswer.isEmpty()) {
                return;
            }
            if (System.nanoTime() > deadline) {
                int h = lastAnswer.keySet().iterator().next();
                String name = layout.roleOf(h) + "-h" + h;
                throw new NotUp(name + " did not answer its health check with ready within " + s.healthTimeoutMillis()
                        + " ms (last answer: " + lastAnswer.get(h) + "); " + tail(layout.logOf(name)));
            }
            Thread.sleep(300);
        }
    }

    /** The class path with every entry absolute: the host processes must not depend on the caller's directory. */
    public static String absoluteClassPath(String classPath) {
        List<String> entries = new ArrayList<>();
        for (String e : classPath.split(File.pathSeparator)) {
            if (!e.isEmpty()) {
                entries.add(Path.of(e).toAbsolutePath().normalize().toString());
            }
        }
        return String.join(File.pathSeparator, entries);
    }

    /** Whether {@code log} holds {@code text} after its first {@code from} bytes (an earlier run's output). */
    private static boolean logContains(Path log, long from, String text) {
        try {
            if (!Files.exists(log)) {
                return false;
            }
            byte[] all = Files.readAllBytes(log);
            int start = (int) Math.min(from, all.length);
            return new String(all, start, all.length - start, StandardCharsets.UTF_8).contains(text);
        } catch (IOException e) {
            return false;
        }
    }

    private static long logSize(Path log) {
        try {
            return Files.exists(log) ? Files.size(log) : 0;
        } catch (IOException e) {
            return 0;
        }
    }

    static String tail(Path log) {
        try {
            List<String> lines = Files.exists(log) ? Files.readAllLines(log, StandardCharsets.UTF_8) : List.of();
            List<String> last = lines.subList(Math.max(0, lines.size() - LOG_TAIL_LINES), lines.size());
            return "the end of " + log + ":\n  " + String.join("\n  ", last);
        } catch (IOException e) {
            return "cannot read " + log + ": " + e.getMessage();
        }
    }
}
