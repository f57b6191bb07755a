package dev.innet.rack;

import dev.innet.p4sim.P4Sim;
import dev.innet.p4sim.v1model.P4Switch;
import dev.innet.p4sim.v1model.SwitchConfig;
import dev.innet.p4sim.v1model.SwitchStats;
import dev.innet.protocol.KvResult;
import dev.innet.protocol.NodeCounters;
import dev.innet.protocol.Protocol;
import dev.innet.protocol.RackNodes;
import dev.innet.protocol.RackPorts;
import dev.innet.protocol.RackSpec;
import dev.innet.protocol.Topology;
import dev.innet.rack.workload.KeyChooser;
import dev.innet.rack.workload.Workload;
import dev.innet.rack.workload.WorkloadClient;
import dev.innet.rack.workload.WorkloadStats;
import dev.innet.rack.workload.DriverClient;
import dev.innet.sim.Node;
import dev.innet.sim.RandomSource;
import dev.innet.switchapi.SwitchControl;
import dev.innet.switchapi.SwitchHandle;
import dev.innet.sim.history.HistoryRecorder;
import dev.innet.sim.simulated.Channel;
import dev.innet.sim.simulated.HostLink;
import dev.innet.sim.simulated.LinkFaults;
import dev.innet.sim.simulated.SimSwitch;
import dev.innet.sim.simulated.Simulation;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * A rack in the deterministic simulator, for any registered {@link Protocol}: one switch running the
 * protocol's P4 program on p4sim (or, if the protocol has a {@link Protocol#topology}, several, each running
 * it, cabled as it says), the protocol's storage servers, workload clients using its client
 * library, and its controller on the CPU port. The harness knows protocols only through that interface. Hosts: servers 1..S, clients after
 * them (port 64 skipped), controller 254. A run has two phases: chaos until {@code chaosNanos} (the
 * configured link faults), then heal and a quiet phase in which every client's last operation finishes.
 */
public final class Rack {
    private final Simulation sim;
    private final SimSwitch sw;
    private final SwitchHandle handle;
    private final Topology topology;
    private final Map<String, SimSwitch> switches = new LinkedHashMap<>();
    private final Map<String, SwitchHandle> handles = new LinkedHashMap<>();
    private final HistoryRecorder history;
    private final WorkloadStats stats;
    private final List<Integer> servers;
    private final List<Integer> clients;
    private final Builder config;

    private Rack(Builder b) {
        this.config = b;
        this.sim = Simulation.builder(b.seed).out(b.out).durableRoot(b.durableRoot).maxEvents(b.maxEvents)
                .recordTraceEvents(b.recordTraceEvents).build();
        this.history = new HistoryRecorder(sim.clock());
        this.stats = new WorkloadStats(b.statsBucketNanos);
        // p4/ is on the include path so a program variant kept elsewhere (a seeded bug under target/)
        // includes the same headers as the real program.
        P4Sim.Program program = P4Sim.compile(b.programSource != null ? b.programSource : b.root.resolve(b.protocol.p4Program()),
                List.of(b.root.resolve("p4")));
        this.servers = new ArrayList<>();
        this.clients = new ArrayList<>();
        int host = 0;
        for (int i = 0; i < b.servers; i++) {
            host = nextCableableHost(host);
            servers.add(host);
        }
        for (int i = 0; i < b.clients; i++) {
            host = nextCableableHost(host);
            clients.add(host);
        }
        RackSpec spec = new RackSpec(servers, clients, RackPorts.CONTROLLER_HOST, b.cacheCapacity, b.hotThreshold,
                b.counterResetNanos, b.controlStepNanos, b.preload, b.clientTimeoutNanos, b.rocksdb);
        this.topology = b.protocol.topology(spec);
        for (String name : topology.switches()) {
            SwitchHandle h = new SwitchHandle();
            // The first switch keeps the one-switch rack's random stream name, so existing runs replay unchanged.
            RandomSource switchRandom = sim.random(switches.isEmpty() ? "p4sim" : "p4sim-" + name);
            SimSwitch s = sim.addSwitch(name, () -> {
                // A new switch instance at every (re)start: empty tables and registers, as after a reboot.
                P4Switch p4 = program.instantiate(SwitchConfig.defaults().withCpuPort(-1).withSeed(switchRandom.nextLong())
                        .withClock(() -> sim.now() / 1_000));
                h.attach(p4.control());
                return new P4SwitchDevice(p4, b.traffic, sim.recordsTraceEvents() ? new SwitchFrameTrace(sim, clients,
                        b.protocol.tracesSwitchUdpFrames(), topology.switches().size() > 1 ? name : null) : null,
                        b.protocol.switchMemoryNanos());
            });
            switches.put(name, s);
            handles.put(name, h);
        }
        for (Topology.Cable c : topology.cables()) {
            sim.connectSwitches(switches.get(c.a()), c.portA(), switches.get(c.b()), c.portB());
        }
        this.sw = switches.values().iterator().next();
        this.handle = handles.values().iterator().next();
        RackNodes nodes = topology.switches().size() == 1 ? b.protocol.nodes(spec, handle)
                : b.protocol.nodes(spec, topology, java.util.Collections.unmodifiableMap(handles));
        for (int s : servers) {
            HostLink link = sim.addHost(s, () -> nodes.server(s), switchOf(s), portOf(s));
            link.toSwitch().setFaults(b.serverLinkFaults);
            link.fromSwitch().setFaults(b.serverLinkFaults);
        }
        for (int j = 0; j < clients.size(); j++) {
            int c = clients.get(j);
            List<byte[]> load = new ArrayList<>();
            for (int k = j; k < b.loadKeys.size(); k += clients.size()) {
                load.add(b.loadKeys.get(k));
            }
            HostLink link = sim.addHost(c, b.driverClients ? () -> new DriverClient(nodes, history) : () -> {
                // a protocol with its own application (not a key-value store) runs its own workload
                Node application = nodes.applicationClient(b.chaosNanos, history, stats);
                return application != null ? application
                        : new WorkloadClient(nodes, b.workload, b.chaosNanos, history, stats, b.keyChoosers, load);
            }, switchOf(c), portOf(c));
            link.toSwitch().setFaults(b.clientRequestFaults);
            link.fromSwitch().setFaults(b.clientReplyFaults);
        }
        sim.addHost(RackPorts.CONTROLLER_HOST, nodes::controller, switchOf(RackPorts.CONTROLLER_HOST),
                portOf(RackPorts.CONTROLLER_HOST));
        // hosts the topology adds (other switches' controllers), after the rack's own so every existing
        // run's hosts are made in the same order as before
        for (int other : topology.hosts().keySet()) {
            if (!spec.allHosts().contains(other)) {
                sim.addHost(other, () -> nodes.otherHost(other), switchOf(other), portOf(other));
            }
        }
    }

    private SimSwitch switchOf(int host) {
        return switches.get(topology.switchOf(host));
    }

    private int portOf(int host) {
        return topology.hosts().get(host).port();
    }

    /** The host after {@code host}, skipping 64 (the CPU port's number, see {@link RackPorts}). */
    private static int nextCableableHost(int host) {
        int next = host + 1;
        return next == RackPorts.CPU_PORT ? next + 1 : next;
    }

    public static Builder builder(Path repositoryRoot, long seed) {
        return new Builder(repositoryRoot, seed);
    }

    /** Crashes the switch at {@code time} (every table and register lost) and restarts it at {@code restart}. */
    public void crashSwitch(long time, long restart) {
        sim.at(time, "switch crash", () -> {
            handle.detach();
            sim.crashSwitch(sw);
        });
        sim.at(restart, "switch restart", () -> sim.restartSwitch(sw));
    }

    /**
     * Crashes the switch named {@code name} of a multi-switch topology at {@code time} (its tables and
     * registers lost) and restarts it at {@code restart}.
     */
    public void crashSwitch(String name, long time, long restart) {
        SimSwitch s = switches.get(name);
        SwitchHandle h = handles.get(name);
        if (s == null) {
            throw new IllegalArgumentException("no switch " + name + " (have " + switches.keySet() + ")");
        }
        sim.at(time, "switch crash " + name, () -> {
            h.detach();
            sim.crashSwitch(s);
        });
        sim.at(restart, "switch restart " + name, () -> sim.restartSwitch(s));
    }

    /** The run's switches and their cabling (one switch, {@code tor}, unless the protocol says otherwise). */
    public Topology topology() {
        return topology;
    }

    /** The control-plane handle of switch {@code name} (tests read registers through it). */
    public SwitchHandle switchHandle(String name) {
        SwitchHandle h = handles.get(name);
        if (h == null) {
            throw new IllegalArgumentException("no switch " + name + " (have " + handles.keySet() + ")");
        }
        return h;
    }

    /** Crashes host {@code host} (server, client or controller) at {@code time}, restarts it at {@code restart}. */
    public void crashHost(long time, long restart, int host) {
        sim.crashAt(time, host);
        sim.restartAt(restart, host);
    }

    /** Runs the chaos phase, heals every fault, and lets outstanding operations finish. */
    public void run() {
        sim.runUntil(config.chaosNanos);
        sim.heal();
        // Clients stop issuing at chaosNanos; a quiet phase lets every outstanding operation finish or
        // time out (bounded by the client's timeouts and retries).
        sim.runUntil(config.chaosNanos + config.quietNanos);
    }

    /**
     * Hands one operation to a driver client at the current simulated time without running the
     * simulation: {@code done} is called (on the simulation's thread) when the operation ends. Several
     * operations submitted before the simulation runs on are concurrent in simulated time.
     */
    public void submit(int clientHost, DriverClient.Kind kind, byte[] key, byte[] value, Consumer<KvResult> done) {
        if (!config.driverClients) {
            throw new IllegalStateException("this rack's clients run their own workload");
        }
        sim.atNode(sim.now(), clientHost, "driver " + kind, n -> ((DriverClient) n).submit(kind, key, value, done));
    }

    /** Lets simulated time pass (e.g. for the controller to program a fresh switch before traffic). */
    public void advance(long nanos) {
        sim.runUntil(sim.now() + nanos);
    }

    public Simulation simulation() {
        return sim;
    }

    public HistoryRecorder history() {
        return history;
    }

    public WorkloadStats stats() {
        return stats;
    }

    public List<Integer> servers() {
        return servers;
    }

    public List<Integer> clients() {
        return clients;
    }

    /** The controller node of the current incarnation (protocol tests cast it to their class). */
    public Node controller() {
        return sim.node(RackPorts.CONTROLLER_HOST);
    }

    /** The controller's counters by name ({@code evictions}, {@code admissions}, ...); empty if it counts nothing. */
    public Map<String, Long> controllerCounters() {
        return controller() instanceof NodeCounters c ? c.counters() : Map.of();
    }

    /** The server node on {@code host} (current incarnation). */
    public Node server(int host) {
        return sim.node(host);
    }

    /** A server's counter ({@code requests}, ...), 0 if it does not count it. */
    public long serverCounter(int host, String name) {
        return server(host) instanceof NodeCounters c ? c.counter(name) : 0;
    }

    /** Packet counters (recirculations, clones, ...) of every switch of the topology that is running now; a crashed one has none. */
    public List<SwitchStats> runningSwitchStats() {
        List<SwitchStats> out = new ArrayList<>();
        for (SimSwitch s : switches.values()) {
            if (s.device() instanceof P4SwitchDevice d) {
                out.add(d.p4Switch().stats());
            }
        }
        return out;
    }

    /** All channels between the switch and the servers, both directions. */
    public List<Channel> serverChannels() {
        List<Channel> out = new ArrayList<>();
        for (int s : servers) {
            out.add(sim.link(s).toSwitch());
            out.add(sim.link(s).fromSwitch());
        }
        return out;
    }

    /** Run parameters; defaults are a small rack with clean links. The protocol must be given. */
    public static final class Builder {
        private final Path root;
        private final long seed;
        private Protocol protocol;
        private Path programSource;
        private int servers = 2;
        private int clients = 4;
        private int cacheCapacity = 16;
        private Workload workload = Workload.ycsbA(64, 16);
        private long chaosNanos = 50_000_000;
        private long quietNanos = 100_000_000;
        private long counterResetNanos = 10_000_000;
        private long statsBucketNanos = 1_000_000;
        private LinkFaults serverLinkFaults = LinkFaults.CLEAN;
        private LinkFaults clientRequestFaults = LinkFaults.CLEAN;
        private LinkFaults clientReplyFaults = LinkFaults.CLEAN;
        private boolean rocksdb;
        private Path durableRoot;
        private PrintStream out = System.out;
        private long maxEvents = 20_000_000;
        // A simulated rack's round trip is tens of microseconds; the timeout is a few round trips.
        private long clientTimeoutNanos = 500_000;
        private int hotThreshold;
        private long controlStepNanos = 20_000;
        private List<byte[]> preload = List.of();
        private boolean driverClients;
        private boolean recordTraceEvents;
        private SwitchTraffic traffic;
        private Supplier<KeyChooser> keyChoosers;
        private List<byte[]> loadKeys = List.of();

        private Builder(Path root, long seed) {
            this.root = Objects.requireNonNull(root);
            this.seed = seed;
        }

        /** The protocol to run (from the registry, or an instance configured by code that knows it). */
        public Builder protocol(Protocol p) {
            this.protocol = Objects.requireNonNull(p);
            return this;
        }

        /** Runs another P4 source than the program's own (e.g. a seeded buggy variant), same control names. */
        public Builder programSource(Path source) {
            this.programSource = source;
            return this;
        }

        public Builder servers(int n) {
            this.servers = n;
            return this;
        }

        public Builder clients(int n) {
            this.clients = n;
            return this;
        }

        public Builder cacheCapacity(int n) {
            this.cacheCapacity = n;
            return this;
        }

        public Builder workload(Workload w) {
            this.workload = w;
            return this;
        }

        public Builder chaosNanos(long n) {
            this.chaosNanos = n;
            return this;
        }

        public Builder quietNanos(long n) {
            this.quietNanos = n;
            return this;
        }

        public Builder counterResetNanos(long n) {
            this.counterResetNanos = n;
            return this;
        }

        public Builder statsBucketNanos(long n) {
            this.statsBucketNanos = n;
            return this;
        }

        /** Faults on every switch<->server link, both directions, during the chaos phase. */
        /** Faults on the client->switch ({@code requests}) and switch->client links during the chaos phase (clean by default). */
        public Builder clientLinkFaults(LinkFaults requests, LinkFaults replies) {
            this.clientRequestFaults = requests;
            this.clientReplyFaults = replies;
            return this;
        }

        public Builder serverLinkFaults(LinkFaults f) {
            this.serverLinkFaults = f;
            return this;
        }

        /** Servers keep records in RocksDB under the durable root (needed for server crash tests). */
        public Builder rocksdb(Path durableRootDirectory) {
            this.rocksdb = true;
            this.durableRoot = durableRootDirectory;
            return this;
        }

        public Builder out(PrintStream p) {
            this.out = p;
            return this;
        }

        /** Clients take operations from {@link Rack#execute} instead of running a workload (YCSB binding). */
        public Builder driverClients() {
            this.driverClients = true;
            return this;
        }

        /** Keys the controller admits in one batch when it brings a fresh switch up (benchmark load phase). */
        public Builder preload(List<byte[]> keys) {
            this.preload = List.copyOf(keys);
            return this;
        }

        /** Time one control-plane step takes; longer steps widen the windows admissions and evictions open. */
        public Builder controlStepNanos(long n) {
            this.controlStepNanos = n;
            return this;
        }

        /** Count-Min estimate at which a key is hot (0: the program's default, 20). */
        public Builder hotThreshold(int n) {
            this.hotThreshold = n;
            return this;
        }

        public Builder clientTimeoutNanos(long n) {
            this.clientTimeoutNanos = n;
            return this;
        }

        public Builder maxEvents(long n) {
            this.maxEvents = n;
            return this;
        }

        /** Keeps the nodes' protocol trace events ({@code simulation().traceEvents()}) for trace validation. */
        public Builder recordTraceEvents(boolean on) {
            this.recordTraceEvents = on;
            return this;
        }

        /** Counts every frame through the switch per port and op into {@code t} (benchmarks). */
        public Builder switchTraffic(SwitchTraffic t) {
            this.traffic = t;
            return this;
        }

        /**
         * Workload clients draw keys from a fresh chooser of {@code s} per incarnation, not the workload's
         * zipfian; a workload with an {@code OperationChooser} ignores it (the chooser picks the keys).
         */
        public Builder keyChoosers(Supplier<KeyChooser> s) {
            this.keyChoosers = s;
            return this;
        }

        /** Keys the workload clients write (split among them) before their workload: a benchmark's load phase. */
        public Builder loadKeys(List<byte[]> keys) {
            this.loadKeys = List.copyOf(keys);
            return this;
        }

        public Rack build() {
            if (protocol == null) {
                throw new IllegalStateException("a rack needs a protocol (Rack.Builder.protocol)");
            }
            if (servers < 1 || clients < 1 || servers + clients + 1 > 253) {
                throw new IllegalArgumentException("a rack has 1+ servers and 1+ clients, at most 252 hosts");
            }
            return new Rack(this);
        }
    }
}
