package dev.innet.live;

import dev.innet.cli.Cli;
import dev.innet.live.workload.WorkloadHost;
import dev.innet.p4sim.bmv2.Bmv2CliControl;
import dev.innet.p4runtime.P4RuntimeSwitchControl;
import dev.innet.p4sim.cli.RemoteSwitchControl;
import dev.innet.switchapi.ControlException;
import dev.innet.switchapi.SwitchControl;
import dev.innet.protocol.Forwarding;
import dev.innet.protocol.HostPorts;
import dev.innet.protocol.KvCommandLine;
import dev.innet.protocol.KvResult;
import dev.innet.protocol.Protocol;
import dev.innet.protocol.ProtocolRegistry;
import dev.innet.protocol.RackNodes;
import dev.innet.protocol.RackSpec;
import dev.innet.sim.Node;
import dev.innet.sim.NodeFactory;
import dev.innet.sim.SeededRandom;
import dev.innet.sim.history.HistoryRecorder;
import dev.innet.sim.live.AddressBook;
import dev.innet.sim.live.CommandSocket;
import dev.innet.sim.live.FileDurableStore;
import dev.innet.sim.live.LiveHost;
import dev.innet.switchapi.SwitchHandle;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.stream.Stream;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * One host process of a live rack ({@code rack up} starts it inside the host's network namespace): the
 * protocol's own server, controller or client node, from the protocol's {@link RackNodes} as in the
 * simulator, on a {@link LiveHost} (real UDP sockets on the rack address, monotonic clock, durable files).
 * It answers {@code health} on its command socket, and a client host runs workloads asked for there.
 */
@Command(name = "innet-host", sortOptions = false, usageHelpAutoWidth = true,
        description = "One host of a live rack (started by ./innet rack up; docs/live-rack.md).")
public final class HostMain implements Callable<Integer> {
    /** How long the controller keeps trying to reach p4sim's control port while the switch starts. */
    private static final long SWITCH_CONNECT_MILLIS = 30_000;

    @Spec
    private CommandSpec spec;

    @Option(names = "--rack", required = true, paramLabel = "NAME", description = "the rack's name")
    private String rack;

    @Option(names = "--state", required = true, paramLabel = "DIR", description = "the rack's state directory")
    private Path state;

    @Option(names = "--protocol", required = true, paramLabel = "NAME", description = "a registered protocol")
    private String protocolName;

    @Option(names = "--servers", required = true, paramLabel = "N", description = "servers in the rack")
    private int servers;

    /** The rack's server hosts (from the layout), for {@code forget-server}. */
    private List<Integer> serverHosts = List.of();

    @Option(names = "--clients", required = true, paramLabel = "N", description = "clients in the rack")
    private int clients;

    @Option(names = "--host", required = true, paramLabel = "H", description = "this host's number")
    private int host;

    @Option(names = "--seed", paramLabel = "S", description = "the rack's seed (default: ${DEFAULT-VALUE})")
    private long seed = 1;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "show this help and exit")
    private boolean help;

    /**
     * Bugs a test can seed into a server (docs/jepsen.md, the campaign that must come out invalid):
     * {@code volatile-store} keeps the server's records in memory only, so it acknowledges writes that a
     * kill -9 then loses; {@code stale-restart} (acted on by {@code rack restart}, not by the host) restarts a
     * server program that keeps no data without first making the switch forget what it cached from it
     * (RackUp.forgetLostData), so LaKe serves items memcached lost; {@code server-ignores-seq} makes FarReach's and
     * NetCache's servers apply numbered writes in arrival order, {@code data-node-restamps} makes the visibility
     * layer's data nodes append a retried write again under a new timestamp, {@code server-single-phase} makes
     * DistCache's servers skip the invalidation phase ({@link Protocol#withSeededBug}: what rack validate must
     * reject); {@code switch-keeps-on-reject} is in LaKe's switch program ({@link Protocol#withSeededProgramBug}, which
     * rack up writes and p4sim runs). Hidden: nothing but tests pass them ({@code rack up --seeded-bug}).
     */
    static final List<String> SEEDED_BUGS = Stream.of(Stream.of("volatile-store", "stale-restart"),
            Protocol.SEEDED_PROTOCOL_BUGS.stream(), Protocol.SEEDED_PROGRAM_BUGS.stream()).flatMap(b -> b).toList();

    @Option(names = "--seeded-bug", hidden = true)
    private String seededBug = "";

    /** Set by rack up --campaign-shape on every host: the protocol as its campaigns run it (Protocol.forCampaigns). */
    @Option(names = "--campaign-shape", hidden = true)
    private boolean campaignShape;

    @Option(names = "--trace-events", paramLabel = "FILE", description = "append the protocol's trace events "
            + "(NDJSON, one per spec action taken; docs/conformance.md) to FILE")
    private Path traceEvents;
    /** Set by rack up --target bmv2 on the controller: drive the switch with this simple_switch_CLI. */
    @Option(names = "--switch-cli", hidden = true, paramLabel = "PATH")
    private Path switchCli;

    /**
     * Set by rack up --control p4runtime on the controller: program the switch through P4Runtime on this port
     * of the switch's namespace (which the controller shares) instead of p4sim's CLI port.
     */
    @Option(names = "--switch-p4runtime-port", hidden = true, paramLabel = "PORT")
    private int switchP4RuntimePort;

    /** This process's rack-wide operation id base (host and incarnation; ClientJournal.idBase). */
    private long idBase;

    public static void main(String[] args) {
        Cli.main("innet-host", new HostMain(), args);
    }

    /**
     * {@code p} with {@code bug} seeded where the protocol's own code holds it (server-ignores-seq); the other
     * bugs are the rack's (volatile-store: the rack spec; stale-restart: rack restart), so {@code p} as it is.
     */
    static Protocol withSeededBug(Protocol p, String bug) {
        if (!Protocol.SEEDED_PROTOCOL_BUGS.contains(bug)) {
            return p;
        }
        return p.withSeededBug(bug).orElseThrow(() -> new IllegalArgumentException("--seeded-bug " + bug
                + ": " + p.name() + "'s servers cannot have it (" + switch (bug) {
                    case Protocol.SERVERS_IGNORING_SEQUENCE_NUMBERS -> "they do not number writes; FarReach's, NetCache's and Pegasus's do";
                    case Protocol.DATA_NODES_RESTAMPING_RETRIES -> "the visibility layer's data nodes can";
                    case Protocol.SERVERS_SKIPPING_PHASE_ONE -> "DistCache's servers can";
                    default -> "no server of it has this bug";
                } + ")"));
    }

    /** The shape every process of the rack derives from the same arguments, so they all agree on it. */
    static RackSpec rackSpec(RackLayout layout, Protocol protocol) {
        return rackSpec(layout, protocol, true);
    }

    private static RackSpec rackSpec(RackLayout layout, Protocol protocol, boolean durableServers) {
        return new RackSpec(layout.servers(), layout.clients(), layout.controllerHost(), 16, protocol.liveHotThreshold(),
                // hot reports and counter resets once a second: live time is real time
                1_000_000_000L,
                // one control-plane step every millisecond
                1_000_000L, List.of(),
                // a live round trip crosses p4sim on AF_PACKET: a few hundred microseconds when idle, far
                // more on a loaded machine; reads are retried, writes end unknown after one timeout
                200_000_000L, durableServers);
    }

    @Override
    public Integer call() throws Exception {
        RackLayout layout;
        Protocol protocol;
        String role;
        try {
            layout = RackLayout.of(rack, state, servers, clients);
            serverHosts = layout.servers();
            Protocol registered = ProtocolRegistry.byName(protocolName);
            protocol = withSeededBug(campaignShape ? registered.forCampaigns() : registered, seededBug);
            role = layout.roleOf(host);
            if (!seededBug.isEmpty() && !SEEDED_BUGS.contains(seededBug)) {
                throw new IllegalArgumentException("--seeded-bug must be one of " + SEEDED_BUGS + ", got '" + seededBug + "'");
            }
        } catch (IllegalArgumentException e) {
            throw Cli.usageError(spec, e.getMessage());
        }
        // one handle per switch of the protocol's topology (one in a rack, five in DistCache's leaf-spine
        // network); the controller attaches each to its switch's control port, the other roles hold none
        RackSwitches switches = RackSwitches.of(protocol, layout);
        Map<String, SwitchHandle> handles = new LinkedHashMap<>();
        Map<String, SwitchControl> firstControls = new LinkedHashMap<>();
        Map<String, SwitchWatch.Connector> connectors = new LinkedHashMap<>();
        for (String sw : switches.names()) {
            handles.put(sw, new SwitchHandle());
            int port = switches.controlPortOf(sw);
            connectors.put(sw, switchCli != null ? () -> new Bmv2CliControl(switchCli, port)
                    : switchP4RuntimePort > 0 ? () -> connectP4Runtime(switchP4RuntimePort)
                    : () -> new RemoteSwitchControl(port));
        }
        if (role.equals("controller")) {
            for (String sw : switches.names()) {
                SwitchControl control = connectUntilAnswered(connectors.get(sw));
                firstControls.put(sw, control);
                handles.get(sw).attach(control);
            }
        }
        if (seededBug.equals("volatile-store")) {
            System.out.println("innet-host: SEEDED BUG " + seededBug + ": this server's records are not durable");
        }
        if (seededBug.equals(Protocol.SERVERS_IGNORING_SEQUENCE_NUMBERS)) {
            System.out.println("innet-host: SEEDED BUG " + seededBug + ": this server applies numbered writes in arrival order");
        }
        if (campaignShape) {
            String changes = protocol.campaignChanges();
            System.out.println("innet-host: campaign shape: " + (changes.isEmpty() ? "none for " + protocolName : changes));
        }
        RackNodes nodes = protocol.nodes(rackSpec(layout, protocol, !seededBug.equals("volatile-store")), switches.topology(),
                handles);
        // the format needs one clock for every client of the rack: the machine's monotonic clock, unshifted
        HistoryRecorder history = new HistoryRecorder(System::nanoTime);
        // a restarted client numbers its operations from 1 again: its rack-wide ids include the incarnation
        FileDurableStore durable = new FileDurableStore(layout.durableDirOf(host));
        int incarnation = durable.get(LiveHost.INCARNATION_KEY).map(b -> java.nio.ByteBuffer.wrap(b).getInt() + 1).orElse(0);
        idBase = ClientJournal.idBase(host, incarnation);
        ClientJournal journal = new ClientJournal(history, idBase);
        NodeFactory factory = switch (role) {
            case "server" -> () -> nodes.server(host);
            case "controller" -> nodes::controller;
            default -> () -> new WorkloadHost(nodes, history, journal, protocol.workloadValueBytes());
        };
        // the protocol's own ports for this role (Protocol.hostPorts): 5008/5009 for the key-value family,
        // 5010 for Pegasus, 5011 for the visibility layer, ...
        List<Integer> ports = protocol.hostPorts().of(HostPorts.Role.named(role));
        SkewableClock clock = new SkewableClock();
        LiveHost live = new LiveHost(host, factory, AddressBook.identity(), ports, null,
                new SeededRandom(seed * 1_000_003L + host), durable, System.out, clock);
        if (traceEvents != null) {
            // stamped with the machine's monotonic clock, as the history is: the hosts' files merge in order
            live.traceEventsTo(openTraceEvents(traceEvents), System::nanoTime);
            if (role.equals("controller")) {
                live.traceStepStarts(); // the merge places each step at the switch write it made (TraceEventsMerge)
            }
        }
        live.start();
        for (Map.Entry<String, SwitchControl> first : firstControls.entrySet()) {
            // a switch crash must not stop the controller: detach, then attach to the restarted switch
            // (over P4Runtime too the watch holds its idle connection on p4sim's CLI port: the kernel closes it when
            // the switch process dies, whatever API the controller programs it through)
            String sw = first.getKey();
            SwitchWatch.start(live, handles.get(sw), switches.several() ? sw : "the switch", switches.controlPortOf(sw),
                    first.getValue(), connectors.get(sw));
        }
        String identity = "role=" + role + " protocol=" + protocol.name() + " host=" + host;
        CommandSocket socket = CommandSocket.listen(layout.socketOf(host),
                request -> answer(request, identity, role, live, handles, history, clock, journal));
        // a protocol whose servers are an existing program (memcached): their health is the controller's probe
        List<CommandSocket> proxies = role.equals("controller") && protocol.externalServer().isPresent()
                ? ExternalServerHealth.listen(layout, protocol, host) : List.of();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            proxies.forEach(CommandSocket::close);
            socket.close();
            live.close();
        }));
        System.out.println("innet-host: " + identity + " started, command socket " + layout.socketOf(host));
        // The node runs on the host's threads; this one only watches for a handler that threw, which
        // stops the host: the process then exits so that health checks and rack status see it.
        while (live.failure() == null) {
            Thread.sleep(200);
        }
        System.out.println("innet-host: h" + host + " stopped: " + live.failure());
        return 1;
    }

    /**
     * Opens the trace-event file for appending, one flush per line: a kill -9 loses no event already
     * written, and a restarted incarnation adds to the same file (each line carries its incarnation).
     */
    private static java.io.PrintStream openTraceEvents(Path file) throws IOException {
        Files.createDirectories(file.toAbsolutePath().getParent());
        return new java.io.PrintStream(Files.newOutputStream(file, java.nio.file.StandardOpenOption.CREATE,
                java.nio.file.StandardOpenOption.APPEND), true, java.nio.charset.StandardCharsets.UTF_8);
    }

    /**
     * The controller's first control of the switch (p4sim's CLI port, bmv2's simple_switch_CLI or P4Runtime),
     * retried until the switch answers: the switch may still be opening its ports.
     */
    private static SwitchControl connectUntilAnswered(SwitchWatch.Connector connector) throws InterruptedException, IOException {
        long deadline = System.nanoTime() + SWITCH_CONNECT_MILLIS * 1_000_000;
        while (true) {
            try {
                return connector.connect();
            } catch (IOException e) {
                if (System.nanoTime() > deadline) {
                    throw new IOException("cannot reach the switch's control API within " + SWITCH_CONNECT_MILLIS + " ms: "
                            + e.getMessage(), e);
                }
                Thread.sleep(200);
            }
        }
    }

    /**
     * P4Runtime (rack up --control p4runtime): a StreamChannel to p4sim's server on loopback, won as the primary
     * with election id 1 (the rack has one controller; a restarted one takes over once the old stream is gone).
     * A server that does not answer yet, or still holds a primary, is an IOException, so the caller retries.
     */
    private static SwitchControl connectP4Runtime(int port) throws IOException {
        try {
            return new P4RuntimeSwitchControl("127.0.0.1", port, RackLayout.SWITCH_P4RUNTIME_DEVICE_ID, 1);
        } catch (ControlException e) {
            throw new IOException(e.getMessage(), e);
        }
    }

    private String answer(String request, String identity, String role, LiveHost live, Map<String, SwitchHandle> handles,
            HistoryRecorder history, SkewableClock clock, ClientJournal journal) {
        String[] words = request.split(" ");
        try {
            return switch (words[0]) {
                case "health" -> "ok " + identity + " ready=" + (ready(role, live, handles.values()) ? "yes" : "no");
                case "run" -> {
                    if (!role.equals("client")) {
                        throw new IllegalArgumentException("only clients run workloads");
                    }
                    yield runWorkload(words, live, history, journal);
                }
                case "final-reads" -> {
                    if (!role.equals("client") || words.length != 3) {
                        throw new IllegalArgumentException("usage (clients): final-reads KEYS HISTORY_FILE");
                    }
                    yield runOnClient(WorkloadHost.Run.finalReads(Integer.parseInt(words[1])), Path.of(words[2]), live, history,
                            journal);
                }
                case "kv" -> {
                    if (!role.equals("client")) {
                        throw new IllegalArgumentException("only clients run key-value operations");
                    }
                    yield runOne(KvCommandLine.parseRequest(request), live);
                }
                case "forget-server" -> {
                    if (!role.equals("controller") || words.length != 2) {
                        throw new IllegalArgumentException("usage (controller): forget-server HOST");
                    }
                    yield forgetServer(Integer.parseInt(words[1]), live, handles.values().iterator().next());
                }
                case "clock-skew" -> {
                    if (words.length != 2) {
                        throw new IllegalArgumentException("usage: clock-skew MS (forward only)");
                    }
                    yield "ok offset_ms=" + clock.jump(Long.parseLong(words[1]));
                }
                default -> throw new IllegalArgumentException("unknown request '" + words[0]
                        + "' (health, run, final-reads, kv, clock-skew, forget-server)");
            };
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "error: interrupted";
        } catch (Exception e) {
            return "error: " + e.getMessage();
        }
    }

    /**
     * {@code kv get|put|delete KEY [VALUE]} ({@link KvCommandLine}): one operation on this client host,
     * for the YCSB binding; several connections may each have one in flight (the library numbers them).
     */
    private static String runOne(KvCommandLine.Request r, LiveHost live) throws Exception {
        CompletableFuture<KvResult> done = new CompletableFuture<>();
        String refused = live.call((Node node) -> ((WorkloadHost) node).execute(r.op(), r.key(), r.value(), done::complete))
                .get(5, TimeUnit.SECONDS);
        if (refused != null) {
            return "error: " + refused;
        }
        return KvCommandLine.reply(done.get(60, TimeUnit.SECONDS));
    }

    /**
     * {@code forget-server H} (the controller): server host H's program lost its data and is about to
     * start again, empty; the switch forgets what it holds from it ({@code ExternalServer.forgetBeforeRestart}:
     * LaKe invalidates the slots of H's keys and clears its lookup table),
     * on the event loop, between the switch OS's own control steps.
     */
    private String forgetServer(int h, LiveHost live, SwitchHandle handle) throws Exception {
        dev.innet.protocol.ExternalServer server = ProtocolRegistry.byName(protocolName).externalServer()
                .orElseThrow(() -> new IllegalArgumentException(protocolName + " runs no external server program"));
        String failed = live.call(node -> {
            try {
                server.forgetBeforeRestart(handle.control(), h, serverHosts);
                return null;
            } catch (RuntimeException e) {
                // the switch is unreachable: say so; a task that threw would stop the host (LiveHost)
                return e.getMessage() == null ? e.toString() : e.getMessage();
            }
        }).get(10, TimeUnit.SECONDS);
        if (failed != null) {
            throw new IllegalStateException("the switch did not forget h" + h + "'s items: " + failed);
        }
        return "ok forgot h" + h;
    }

    /**
     * Ready: the event loop answers (the node has started and is not stuck); a controller has also
     * brought every switch up (its forwarding is installed), so traffic can flow.
     */
    private static boolean ready(String role, LiveHost live, java.util.Collection<SwitchHandle> handles) throws Exception {
        CompletableFuture<Boolean> answer = live.call(node -> {
            if (!role.equals("controller")) {
                return true;
            }
            try {
                for (SwitchHandle handle : handles) {
                    if (!handle.isUp() || !Forwarding.installed(handle.control())) {
                        return false;
                    }
                }
                return true;
            } catch (RuntimeException e) {
                // the switch is unreachable: not ready; a task that threw would stop the host (LiveHost)
                return false;
            }
        });
        return answer.get(2, TimeUnit.SECONDS);
    }

    /**
     * {@code run OPS KEYS READ% DELETE% HISTORY_FILE [DURATION_MS GAP_US]}: runs the operations (at most
     * OPS; with a duration, until it has passed; GAP_US between one operation and the next), writes their
     * history, says how they ended.
     */
    private String runWorkload(String[] words, LiveHost live, HistoryRecorder history, ClientJournal journal)
            throws Exception {
        if (words.length != 6 && words.length != 8) {
            throw new IllegalArgumentException("usage: run OPS KEYS READ% DELETE% HISTORY_FILE [DURATION_MS GAP_US]");
        }
        long durationNanos = words.length == 8 ? Long.parseLong(words[6]) * 1_000_000L : 0;
        long gapNanos = words.length == 8 ? Long.parseLong(words[7]) * 1_000L : 0;
        WorkloadHost.Run run = new WorkloadHost.Run(Integer.parseInt(words[1]), Integer.parseInt(words[2]),
                Integer.parseInt(words[3]), Integer.parseInt(words[4]), false, durationNanos, gapNanos);
        return runOnClient(run, Path.of(words[5]), live, history, journal);
    }

    private String runOnClient(WorkloadHost.Run run, Path out, LiveHost live, HistoryRecorder history,
            ClientJournal journal) throws Exception {
        int from = history.operations().size();
        // a journal of the run, flushed every 50 ms, so a client killed mid-run leaves its operations
        journal.begin(out, from);
        Thread flusher = Thread.ofPlatform().daemon().name("innet-journal").start(() -> {
            try {
                while (true) {
                    Thread.sleep(50);
                    journal.flush();
                }
            } catch (InterruptedException e) {
                // the run ended
            }
        });
        try {
            return runJournaled(run, out, live, history, from);
        } finally {
            flusher.interrupt();
            journal.end();
        }
    }

    private String runJournaled(WorkloadHost.Run run, Path out, LiveHost live, HistoryRecorder history, int from)
            throws Exception {
        CompletableFuture<WorkloadHost.Summary> done = new CompletableFuture<>();
        live.call((Node node) -> {
            ((WorkloadHost) node).begin(run, done::complete);
            return null;
        }).get(5, TimeUnit.SECONDS);
        WorkloadHost.Summary summary = done.get();
        writeHistory(history, from, out);
        return "done ops=" + run.operations() + " " + summary;
    }

    /**
     * Writes this run's operations as history lines, with ids made unique across the rack's clients
     * (each process numbers its own operations from 1): host * 10^9 + the process's id.
     */
    private void writeHistory(HistoryRecorder history, int from, Path out) {
        String[] lines = history.toJsonLines().split("\n");
        StringBuilder sb = new StringBuilder();
        for (int i = from; i < lines.length; i++) {
            sb.append(ClientJournal.rackWideId(lines[i], idBase)).append('\n');
        }
        try {
            Files.createDirectories(out.toAbsolutePath().getParent());
            Files.writeString(out, sb.toString(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("writing " + out, e);
        }
    }
}
