package dev.innet.sim.simulated;

import dev.innet.sim.Clock;
import dev.innet.sim.DurableStore;
import dev.innet.sim.Network;
import dev.innet.sim.Node;
import dev.innet.sim.NodeContext;
import dev.innet.sim.NodeFactory;
import dev.innet.sim.RandomSource;
import dev.innet.sim.RecordedTraceEvent;
import dev.innet.sim.SeededRandom;
import dev.innet.sim.Timers;
import dev.innet.sim.TraceEvent;
import dev.innet.sim.device.SwitchDevice;
import dev.innet.sim.device.SwitchOutput;
import dev.innet.wire.RackAddressing;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The deterministic simulator: one thread, one simulated clock, one queue of pending events (frame
 * arrivals, timers, scheduled actions) ordered by time and then by the order they were scheduled, and
 * randomness only from streams forked off the seed. Hosts are {@link Node}s attached by links to switch
 * ports; switches are {@link SwitchDevice}s. The same seed and the same scenario give the same event log,
 * bit for bit ({@link #eventLogHash()}).
 *
 * <p>A run is set up with {@link #builder(long)}, {@link #addSwitch}, {@link #addHost}, fault settings and
 * a schedule of faults, then advanced with {@link #runUntil(long)} or {@link #runUntil(BooleanSupplier, long)}.
 * The first run call prints the seed and every fault setting. See docs/simulator.md.
 */
public final class Simulation {
    private final long seed;
    private final RandomSource linkRandoms;
    private final RandomSource hostRandoms;
    private final RandomSource scenarioRandoms;
    private final long maxEvents;
    private final int maxPendingEvents;
    private final int maxInFlightPerChannel;
    private final LinkFaults defaultFaults;
    private final PrintStream out;
    private final Supplier<Path> durableRoot;
    private final EventLog log;
    /** Protocol trace events in run order, or null when the run does not record them (the default). */
    private final List<RecordedTraceEvent> traceEvents;

    private final PriorityQueue<Pending> queue = new PriorityQueue<>();
    private long nextSequence;
    private long now;
    private long eventsProcessed;
    private boolean headerPrinted;
    private boolean running;
    /** The host whose handler is running, or null: contexts refuse to be used by anyone else. */
    private HostSlot current;

    private final TreeMap<Integer, HostSlot> hosts = new TreeMap<>();
    private final TreeMap<String, SimSwitch> switches = new TreeMap<>();
    private final TreeMap<String, Channel> channels = new TreeMap<>();
    private final List<Partition> partitions = new ArrayList<>();
    /** Host pairs (from << 16 | to) that active host-group partitions keep apart, with a count per pair. */
    private final TreeMap<Integer, Integer> blockedPairs = new TreeMap<>();
    /** Invariants checked after every event, in the order they were added. */
    private final List<Monitor> monitors = new ArrayList<>();
    /** Every fault scheduled so far, for the run header: (time, order of scheduling) -> description. */
    private final TreeMap<Long, TreeMap<Integer, String>> faultSchedule = new TreeMap<>();
    private int faultsNoted;

    private Simulation(Builder b) {
        this.seed = b.seed;
        RandomSource root = new SeededRandom(b.seed);
        this.linkRandoms = root.fork("links");
        this.hostRandoms = root.fork("hosts");
        this.scenarioRandoms = root.fork("scenario");
        this.maxEvents = b.maxEvents;
        this.maxPendingEvents = b.maxPendingEvents;
        this.maxInFlightPerChannel = b.maxInFlightPerChannel;
        this.defaultFaults = b.defaultFaults;
        this.out = b.out;
        Path fixedRoot = b.durableRoot;
        this.durableRoot = new Supplier<>() {
            private Path root = fixedRoot;

            @Override
            public Path get() {
                if (root == null) {
                    try {
                        root = Files.createTempDirectory("innet-sim-" + Long.toUnsignedString(seed, 16) + "-");
                    } catch (IOException e) {
                        throw new UncheckedIOException("creating the durable root", e);
                    }
                }
                return root;
            }
        };
        this.log = new EventLog(b.trace);
        this.traceEvents = b.recordTraceEvents ? new ArrayList<>() : null;
    }

    public static Builder builder(long seed) {
        return new Builder(seed);
    }

    /** Run parameters. Defaults suit unit tests: bounded, clean links, header printed to stdout. */
    public static final class Builder {
        private final long seed;
        private long maxEvents = 2_000_000;
        private int maxPendingEvents = 1_000_000;
        private int maxInFlightPerChannel = 4_096;
        private LinkFaults defaultFaults = LinkFaults.CLEAN;
        private PrintStream out = System.out;
        private Path durableRoot;
        private Appendable trace;
        private boolean recordTraceEvents;

        private Builder(long seed) {
            this.seed = seed;
        }

        /** A run that processes more events than this fails (a livelock guard). */
        public Builder maxEvents(long n) {
            if (n <= 0) {
                throw new IllegalArgumentException("maxEvents must be positive");
            }
            this.maxEvents = n;
            return this;
        }

        /** More pending events than this fails the run (a runaway-timer or packet-storm guard). */
        public Builder maxPendingEvents(int n) {
            if (n <= 0) {
                throw new IllegalArgumentException("maxPendingEvents must be positive");
            }
            this.maxPendingEvents = n;
            return this;
        }

        /** A channel holding this many frames drops further ones, like a full port buffer. */
        public Builder maxInFlightPerChannel(int n) {
            if (n <= 0) {
                throw new IllegalArgumentException("maxInFlightPerChannel must be positive");
            }
            this.maxInFlightPerChannel = n;
            return this;
        }

        /** The policy links start with and return to when healed. */
        public Builder defaultFaults(LinkFaults faults) {
            this.defaultFaults = Objects.requireNonNull(faults);
            return this;
        }

        /** Where the run header (seed and fault settings) goes; null for nowhere. */
        public Builder out(PrintStream out) {
            this.out = out;
            return this;
        }

        /** The directory under which each host gets its durable directory; a temporary one if unset. */
        public Builder durableRoot(Path root) {
            this.durableRoot = root;
            return this;
        }

        /** Receives one text line per event; null (the default) for none. */
        public Builder trace(Appendable trace) {
            this.trace = trace;
            return this;
        }

        /**
         * Keeps every {@link TraceEvent} nodes emit, in run order (for trace validation). Off by default:
         * long campaigns would hold millions of them in memory.
         */
        public Builder recordTraceEvents(boolean on) {
            this.recordTraceEvents = on;
            return this;
        }

        public Simulation build() {
            return new Simulation(this);
        }
    }

    // ------------------------------------------------------------------ topology

    /** Adds a switch built by {@code factory} (called again at each restart) and starts it. */
    public SimSwitch addSwitch(String name, Supplier<SwitchDevice> factory) {
        requireName(name);
        if (switches.containsKey(name)) {
            throw new IllegalArgumentException("switch " + name + " already exists");
        }
        SimSwitch sw = new SimSwitch(name, Objects.requireNonNull(factory));
        switches.put(name, sw);
        startSwitch(sw);
        return sw;
    }

    /**
     * Attaches host {@code hostNumber} (1..254; 254 is the CPU/controller host by convention) to
     * {@code port} of {@code sw} and schedules its first start now. The node is built by {@code factory}
     * now and at every restart.
     */
    public HostLink addHost(int hostNumber, NodeFactory factory, SimSwitch sw, int port) {
        if (hostNumber < RackAddressing.MIN_HOST || hostNumber > RackAddressing.CPU_HOST) {
            throw new IllegalArgumentException("host numbers are 1.." + RackAddressing.CPU_HOST + ": " + hostNumber);
        }
        if (hosts.containsKey(hostNumber)) {
            throw new IllegalArgumentException("host " + hostNumber + " already exists");
        }
        requireOwnSwitch(sw);
        if (port < 0 || sw.egress.containsKey(port)) {
            throw new IllegalArgumentException("port " + port + " of " + sw.name + " is invalid or taken");
        }
        HostSlot host = new HostSlot(hostNumber, Objects.requireNonNull(factory), hostRandoms.fork("host-" + hostNumber),
                new SimDurableStore(durableRoot, "host-" + hostNumber));
        SwitchPort switchPort = new SwitchPort(sw, port);
        String up = "h" + hostNumber + ">" + sw.name + ":" + port;
        String down = sw.name + ":" + port + ">h" + hostNumber;
        host.uplink = newChannel(up, host, switchPort);
        Channel downlink = newChannel(down, switchPort, host);
        sw.egress.put(port, downlink);
        hosts.put(hostNumber, host);
        host.link = new HostLink(hostNumber, sw, port, host.uplink, downlink);
        schedule(now, () -> startHost(host));
        return host.link;
    }

    /** Cables two switches together (room for topologies beyond one rack). */
    public void connectSwitches(SimSwitch a, int portA, SimSwitch b, int portB) {
        requireOwnSwitch(a);
        requireOwnSwitch(b);
        if (a.egress.containsKey(portA) || b.egress.containsKey(portB)) {
            throw new IllegalArgumentException("port taken");
        }
        SwitchPort endA = new SwitchPort(a, portA);
        SwitchPort endB = new SwitchPort(b, portB);
        a.egress.put(portA, newChannel(a.name + ":" + portA + ">" + b.name + ":" + portB, endA, endB));
        b.egress.put(portB, newChannel(b.name + ":" + portB + ">" + a.name + ":" + portA, endB, endA));
    }

    private Channel newChannel(String name, Endpoint from, Endpoint to) {
        Channel ch = new Channel(this, name, from, to, linkRandoms.fork(name), defaultFaults);
        channels.put(name, ch);
        return ch;
    }

    // ------------------------------------------------------------------ inspection

    public long seed() {
        return seed;
    }

    /** Simulated time in nanoseconds. */
    public long now() {
        return now;
    }

    /** A clock reading this simulation's time, for recorders and checkers outside the nodes. */
    public Clock clock() {
        return () -> now;
    }

    /** A random stream for the scenario itself (workload choices, fault plans), forked by name from the seed. */
    public RandomSource random(String subsystem) {
        return scenarioRandoms.fork(subsystem);
    }

    public HostLink link(int hostNumber) {
        return host(hostNumber).link;
    }

    /** All channels, sorted by name. */
    public List<Channel> channels() {
        return List.copyOf(channels.values());
    }

    public Channel channel(String name) {
        Channel ch = channels.get(name);
        if (ch == null) {
            throw new IllegalArgumentException("no channel " + name + "; channels are " + channels.keySet());
        }
        return ch;
    }

    /** Host numbers in ascending order. */
    public List<Integer> hostNumbers() {
        return List.copyOf(hosts.keySet());
    }

    public boolean isUp(int hostNumber) {
        return host(hostNumber).up;
    }

    /** The running node of a host (for tests to inspect), or null while it is crashed. */
    public Node node(int hostNumber) {
        return host(hostNumber).node;
    }

    /** The host's durable store as the next incarnation would find it (tests use it to check durability). */
    public DurableStore durableStore(int hostNumber) {
        return host(hostNumber).durable;
    }

    public long eventCount() {
        return log.count();
    }

    /** SHA-256 over the canonical encoding of every event so far: equal exactly when two runs are identical. */
    public String eventLogHash() {
        return log.hash();
    }

    public int pendingEvents() {
        return queue.size();
    }

    // ------------------------------------------------------------------ faults

    void changeFaults(Channel ch, LinkFaults faults) {
        ch.faults = Objects.requireNonNull(faults);
        if (headerPrinted && out != null && !running) {
            out.println("  link " + ch.name() + " from t=" + EventLog.formatTime(now) + ": " + faults.describe());
        }
        log.record(now, EventKind.ACTION, ch.name(), "faults " + faults.describe(), null);
    }

    /** Sets the fault policy of every channel, now. */
    public void setAllLinkFaults(LinkFaults faults) {
        for (Channel ch : channels.values()) {
            ch.setFaults(faults);
        }
    }

    /** Crashes a host now: its node object, timers and in-flight inbound frames are gone, unsynced writes lost. */
    public void crash(int hostNumber) {
        HostSlot h = host(hostNumber);
        if (!h.up) {
            throw new IllegalStateException("host " + hostNumber + " is already down");
        }
        if (current != null) {
            throw new IllegalStateException("crash from inside a node handler; schedule it with crashAt");
        }
        int lost = h.durable.loseUnsynced();
        h.up = false;
        h.node = null;
        h.context = null;
        h.epoch++;
        h.pendingTimers.clear();
        log.record(now, EventKind.CRASH, h.name(), "lost " + lost + " unsynced durable writes", null);
    }

    /** Restarts a crashed host now with a fresh node from its factory and the same durable store. */
    public void restart(int hostNumber) {
        HostSlot h = host(hostNumber);
        if (h.up) {
            throw new IllegalStateException("host " + hostNumber + " is up; crash it first");
        }
        startHost(h);
    }

    public void crashAt(long time, int hostNumber) {
        host(hostNumber);
        noteFault(time, "crash h" + hostNumber);
        schedule(time, () -> crash(hostNumber));
    }

    public void restartAt(long time, int hostNumber) {
        host(hostNumber);
        noteFault(time, "restart h" + hostNumber);
        schedule(time, () -> restart(hostNumber));
    }

    /**
     * Freezes a host during {@code [start, end)}, as a long GC pause or a descheduled VM would: it keeps
     * its state, but frames and timers due meanwhile wait and are handled at {@code end}, in the order
     * they were due, while the world (and other nodes' timeouts) moves on.
     */
    public void pauseHost(long start, long end, int hostNumber) {
        requireWindow(start, end);
        HostSlot h = host(hostNumber);
        noteFault(start, "pause h" + hostNumber + " until " + EventLog.formatTime(end));
        schedule(start, () -> {
            if (h.up) {
                log.record(now, EventKind.ACTION, h.name(), "paused until " + EventLog.formatTime(end), null);
                h.pausedUntil = Math.max(h.pausedUntil, end);
            }
        });
    }

    /** The host number of trace events the simulator itself records (no node has number 0). */
    public static final int ENVIRONMENT_HOST = 0;
    /** Trace event recorded when a switch crashes (every register and table lost): field switch, its name. */
    public static final String SWITCH_CRASH_EVENT = "switchCrash";
    /**
     * Trace events a rack records (rack's SwitchFrameTrace) when a switch processed a client's message (fields
     * client, reqId, op) and when it sent one to a client: trace validation places client steps by them.
     */
    public static final String SWITCH_IN_EVENT = "switchIn";
    public static final String SWITCH_OUT_EVENT = "switchOut";
    /**
     * Trace events a rack records for a protocol whose messages are not innet's (LaKe's memcached over UDP,
     * Protocol.tracesSwitchUdpFrames): a UDP frame the switch processed, and each it sent in that step
     * (fields src, dst: rack hosts; ipId; payload: the UDP payload in hex).
     */
    public static final String SWITCH_UDP_IN_EVENT = "switchUdpIn";
    public static final String SWITCH_UDP_OUT_EVENT = "switchUdpOut";

    /**
     * Records a trace event of the environment (host 0) at the current time, if trace events are kept: what
     * no node sees, e.g. the moment a switch processed a frame (trace validation places spec steps by it).
     */
    public void traceEnvironment(TraceEvent event) {
        if (traceEvents != null) {
            traceEvents.add(new RecordedTraceEvent(now, ENVIRONMENT_HOST, 0, Objects.requireNonNull(event)));
        }
    }

    /** Whether trace events are kept ({@link Builder#recordTraceEvents}). */
    public boolean recordsTraceEvents() {
        return traceEvents != null;
    }

    public void crashSwitch(SimSwitch sw) {
        requireOwnSwitch(sw);
        if (!sw.up) {
            throw new IllegalStateException("switch " + sw.name + " is already down");
        }
        sw.up = false;
        sw.device = null;
        sw.epoch++;
        log.record(now, EventKind.CRASH, sw.name, "switch state lost", null);
        if (traceEvents != null) {
            // No node sees the crash itself (the controller notices the restarted switch later), yet trace
            // validation must know when requests stopped reaching a working switch: the environment records it.
            traceEvents.add(new RecordedTraceEvent(now, ENVIRONMENT_HOST, 0,
                    TraceEvent.of(SWITCH_CRASH_EVENT).with("switch", sw.name)));
        }
    }

    public void restartSwitch(SimSwitch sw) {
        requireOwnSwitch(sw);
        if (sw.up) {
            throw new IllegalStateException("switch " + sw.name + " is up; crash it first");
        }
        startSwitch(sw);
    }

    public void crashSwitchAt(long time, SimSwitch sw) {
        noteFault(time, "crash switch " + sw.name);
        schedule(time, () -> crashSwitch(sw));
    }

    public void restartSwitchAt(long time, SimSwitch sw) {
        noteFault(time, "restart switch " + sw.name);
        schedule(time, () -> restartSwitch(sw));
    }

    /** Cuts {@code cut} channels during {@code [start, end)}: frames on them are lost, including those already in flight. */
    public void partitionLinks(String name, long start, long end, Collection<Channel> cut) {
        requireWindow(start, end);
        List<Channel> list = List.copyOf(cut);
        for (Channel ch : list) {
            if (channels.get(ch.name()) != ch) {
                throw new IllegalArgumentException("channel " + ch + " is not part of this simulation");
            }
        }
        Partition p = new Partition(name, list, List.of());
        noteFault(start, "partition " + name + " until " + EventLog.formatTime(end) + ": cut " + list);
        schedule(start, () -> beginPartition(p));
        schedule(end, () -> endPartition(p));
    }

    /** Isolates a host from everyone during {@code [start, end)} by cutting both directions of its link. */
    public void isolateHost(long start, long end, int hostNumber) {
        HostLink l = link(hostNumber);
        partitionLinks("isolate-h" + hostNumber, start, end, List.of(l.toSwitch(), l.fromSwitch()));
    }

    /**
     * Keeps two groups of hosts apart during {@code [start, end)} while each still reaches the switch and
     * its own group: frames that originated at a host of one side are lost on delivery to the other side.
     * A star topology cannot express this by cutting cables, so the simulator tracks each frame's origin host.
     */
    public void partitionHosts(String name, long start, long end, Set<Integer> sideA, Set<Integer> sideB) {
        requireWindow(start, end);
        List<Integer> pairs = new ArrayList<>();
        for (int a : new TreeSet<>(sideA)) {
            host(a);
            for (int b : new TreeSet<>(sideB)) {
                host(b);
                if (a == b) {
                    throw new IllegalArgumentException("host " + a + " on both sides of partition " + name);
                }
                pairs.add(pairKey(a, b));
                pairs.add(pairKey(b, a));
            }
        }
        Partition p = new Partition(name, List.of(), pairs);
        noteFault(start, "partition " + name + " until " + EventLog.formatTime(end) + ": " + new TreeSet<>(sideA)
                + " | " + new TreeSet<>(sideB));
        schedule(start, () -> beginPartition(p));
        schedule(end, () -> endPartition(p));
    }

    /**
     * The end of the chaos phase: every active partition ends, every channel returns to the default
     * policy, every paused host resumes, every crashed switch and host restarts. What follows checks liveness.
     */
    public void heal() {
        log.record(now, EventKind.ACTION, "sim", "heal", null);
        for (Partition p : List.copyOf(partitions)) {
            endPartition(p);
        }
        for (Channel ch : channels.values()) {
            if (!ch.faults().equals(defaultFaults)) {
                ch.setFaults(defaultFaults);
            }
        }
        for (SimSwitch sw : switches.values()) {
            if (!sw.up) {
                startSwitch(sw);
            }
        }
        for (HostSlot h : hosts.values()) {
            // A paused host resumes now; what it deferred still comes at the old pause end (late, as after a real stall).
            h.pausedUntil = 0;
            if (!h.up) {
                startHost(h);
            }
        }
    }

    public void healAt(long time) {
        noteFault(time, "heal");
        schedule(time, this::heal);
    }

    /** Applies a fault plan (link policies now, crashes and partitions at their times, heal at its end). */
    public void apply(FaultPlan plan) {
        plan.applyTo(this);
    }

    /** Runs {@code action} at {@code time} as a logged event (a test's workload step or custom fault). */
    public void at(long time, String description, Runnable action) {
        Objects.requireNonNull(action);
        schedule(time, () -> {
            log.record(now, EventKind.ACTION, "scenario", description, null);
            action.run();
        });
    }

    /**
     * Runs {@code action} on host's node at {@code time} as if it were one of the node's handlers (its
     * context may be used), e.g. a test telling a client node to issue an operation. Skipped, and logged
     * as such, if the host is down then.
     */
    public void atNode(long time, int hostNumber, String description, Consumer<Node> action) {
        HostSlot h = host(hostNumber);
        Objects.requireNonNull(action);
        schedule(time, () -> {
            if (!h.up) {
                log.record(now, EventKind.ACTION, h.name(), "skipped (down): " + description, null);
                return;
            }
            log.record(now, EventKind.ACTION, h.name(), description, null);
            Node node = h.node;
            runHandler(h, description, () -> action.accept(node));
        });
    }

    // ------------------------------------------------------------------ running

    /** Processes every event due at or before {@code deadline}, then sets the clock to {@code deadline}. */
    public void runUntil(long deadline) {
        runUntil(() -> false, deadline);
    }

    /**
     * Processes events in order until {@code done} holds (checked before each event) or the next event is
     * after {@code deadline}; returns whether {@code done} holds. The clock ends at the last event's time,
     * or at {@code deadline} if the run reached it.
     */
    public boolean runUntil(BooleanSupplier done, long deadline) {
        if (deadline < now) {
            throw new IllegalArgumentException("deadline " + deadline + " is before now " + now);
        }
        if (running) {
            throw new IllegalStateException("runUntil called from inside the run loop");
        }
        printHeaderOnce();
        running = true;
        try {
            while (!done.getAsBoolean()) {
                Pending next = queue.peek();
                if (next == null || next.time > deadline) {
                    if (deadline != Long.MAX_VALUE) {
                        now = deadline;
                    }
                    return done.getAsBoolean();
                }
                queue.poll();
                dispatch(next);
            }
            return true;
        } finally {
            running = false;
        }
    }

    /** The run header: seed, limits, topology and every fault setting and scheduled fault. */
    public String describe() {
        StringBuilder sb = new StringBuilder();
        sb.append("innet-sim seed=").append(seed).append(" (0x").append(Long.toHexString(seed)).append(")\n");
        sb.append("  limits: maxEvents=").append(maxEvents).append(" maxPendingEvents=").append(maxPendingEvents)
                .append(" maxInFlightPerChannel=").append(maxInFlightPerChannel).append('\n');
        sb.append("  default link faults: ").append(defaultFaults.describe()).append('\n');
        for (SimSwitch sw : switches.values()) {
            sb.append("  switch ").append(sw.name).append(" cpuPort=").append(sw.up ? sw.device.cpuPort() : -1)
                    .append(" ports=").append(sw.egress.keySet()).append('\n');
        }
        for (Channel ch : channels.values()) {
            sb.append("  link ").append(ch.name()).append(": ").append(ch.faults().describe()).append('\n');
        }
        faultSchedule.forEach((time, faults) -> faults.values().forEach(f ->
                sb.append("  fault t=").append(EventLog.formatTime(time)).append(' ').append(f).append('\n')));
        return sb.toString();
    }

    /** A failure carrying the seed, the time, a reproduction hint and the recent events. */
    public SimulationFailure failure(String message, Throwable cause) {
        return new SimulationFailure(seed, "seed=" + seed + " t=" + EventLog.formatTime(now) + " event#" + log.count()
                + ": " + message + "\n  reproduce: rerun the test with -Dinnet.sim.seed=" + seed
                + "\n  recent events:\n" + log.recentLines().indent(4), cause);
    }

    /**
     * Adds a runtime monitor: {@code holds} is checked after every event from now on, and the run fails
     * (with the seed, the event and the recent events) at the first event after which it is false. This
     * is where a spec's safety invariant is checked against the implementation (ARCHITECTURE.md
     * principle 4). A monitor reads state only; it must not change the run.
     */
    public void addMonitor(String name, BooleanSupplier holds) {
        monitors.add(new Monitor(Objects.requireNonNull(name), Objects.requireNonNull(holds)));
    }

    /** Fails the run with the seed in the message if {@code condition} is false. */
    public void check(boolean condition, String message) {
        if (!condition) {
            throw failure(message, null);
        }
    }

    private void printHeaderOnce() {
        if (!headerPrinted) {
            headerPrinted = true;
            if (out != null) {
                out.print(describe());
                out.flush();
            }
        }
    }

    private void noteFault(long time, String what) {
        if (time < now) {
            throw new IllegalArgumentException("cannot schedule in the past: " + time + " < " + now);
        }
        faultSchedule.computeIfAbsent(time, t -> new TreeMap<>()).put(faultsNoted++, what);
        if (headerPrinted && out != null) {
            out.println("  fault t=" + EventLog.formatTime(time) + " " + what + " (scheduled at t=" + EventLog.formatTime(now) + ")");
        }
    }

    private void schedule(long time, Runnable action) {
        push(time, new Scheduled(action));
    }

    private void push(long time, Event event) {
        if (time < now) {
            throw new IllegalArgumentException("cannot schedule in the past: " + time + " < " + now);
        }
        if (queue.size() >= maxPendingEvents) {
            throw failure("more than " + maxPendingEvents + " pending events (runaway timers or packet storm?)", null);
        }
        queue.add(new Pending(time, nextSequence++, event));
    }

    private void dispatch(Pending p) {
        if (p.time < now) {
            throw failure("event queue went back in time: " + p.time, null);
        }
        now = p.time;
        if (++eventsProcessed > maxEvents) {
            throw failure("event budget of " + maxEvents + " exhausted (livelock, or a bound too small for the scenario)", null);
        }
        switch (p.event) {
            case Scheduled s -> runAction(s.action);
            case TimerFire t -> fireTimer(t);
            case Arrival a -> arrive(a);
        }
        for (Monitor m : monitors) {
            if (!m.holds.getAsBoolean()) {
                throw failure("monitor '" + m.name + "' violated after this event", null);
            }
        }
    }

    private void runAction(Runnable action) {
        try {
            action.run();
        } catch (SimulationFailure f) {
            throw f;
        } catch (RuntimeException | Error e) {
            throw failure("scheduled action threw " + e, e);
        }
    }

    private void fireTimer(TimerFire t) {
        HostSlot h = t.host;
        if (h.up && h.epoch == t.epoch && now < h.pausedUntil) {
            push(h.pausedUntil, t); // paused: the timer fires when the host resumes
            return;
        }
        if (!h.up || h.epoch != t.epoch || !h.pendingTimers.remove(t.timerId)) {
            return; // cancelled, or its incarnation crashed: nothing happens, nothing to log
        }
        log.record(now, EventKind.TIMER, h.name(), "timer " + t.timerId, null);
        Node node = h.node;
        runHandler(h, "onTimer(" + t.timerId + ")", () -> node.onTimer(t.timerId));
    }

    private void arrive(Arrival a) {
        Channel ch = a.channel;
        if (!a.bufferedAtHost && (ch.cuts > 0 || ch.cutsBegun != a.cutsBegunAtSend)) {
            ch.inFlight--;
            log.record(now, EventKind.DROP, ch.name(), "partitioned (cut while in flight)", a.frame);
            return;
        }
        if (ch.to instanceof HostSlot h && h.up && h.epoch == a.targetEpoch && now < h.pausedUntil) {
            // Paused: the frame has arrived and waits in the host's buffer (still counted on the channel,
            // so a long pause fills it), out of reach of later cuts.
            push(h.pausedUntil, new Arrival(ch, a.frame, a.originHost, a.targetEpoch, a.cutsBegunAtSend, true));
            return;
        }
        ch.inFlight--;
        switch (ch.to) {
            case HostSlot h -> deliverToHost(h, a);
            case SwitchPort sp -> deliverToSwitch(sp, a);
        }
    }

    private void deliverToHost(HostSlot h, Arrival a) {
        if (!h.up || h.epoch != a.targetEpoch) {
            log.record(now, EventKind.DROP, a.channel.name(), "host down", a.frame);
            return;
        }
        if (a.originHost > 0 && blockedPairs.containsKey(pairKey(a.originHost, h.number))) {
            log.record(now, EventKind.DROP, a.channel.name(), "partitioned from h" + a.originHost, a.frame);
            return;
        }
        log.record(now, EventKind.DELIVER, h.name(), "from " + a.channel.name(), a.frame);
        Node node = h.node;
        runHandler(h, "onPacket", () -> node.onPacket(a.frame));
    }

    private void deliverToSwitch(SwitchPort sp, Arrival a) {
        SimSwitch sw = sp.sw;
        if (!sw.up || sw.epoch != a.targetEpoch) {
            log.record(now, EventKind.DROP, a.channel.name(), "switch down", a.frame);
            return;
        }
        log.record(now, EventKind.SWITCH_IN, sw.name + ":" + sp.port, null, a.frame);
        List<SwitchOutput> outputs;
        try {
            outputs = sw.device.receive(sp.port, a.frame);
        } catch (RuntimeException | Error e) {
            throw failure("switch " + sw.name + " threw on a frame from port " + sp.port + ": " + e, e);
        }
        if (outputs == null) {
            throw failure("switch " + sw.name + " returned null instead of a list of outputs", null);
        }
        for (SwitchOutput o : outputs) {
            // Copied: a device may emit one array on several ports (multicast) or keep it; receivers own theirs.
            byte[] frame = o.frame().clone();
            log.record(now, EventKind.SWITCH_OUT, sw.name + ":" + o.egressPort(), null, frame);
            Channel egress = sw.egress.get(o.egressPort());
            if (egress == null) {
                log.record(now, EventKind.DROP, sw.name + ":" + o.egressPort(), "no link on port", frame);
            } else {
                long departure = now;
                if (o.delayNanos() > 0 || egress.lastDeparture > now) {
                    departure = Math.max(now + o.delayNanos(), egress.lastDeparture);
                    egress.lastDeparture = departure;
                }
                transmit(egress, frame, a.originHost, departure - now);
            }
        }
    }

    /**
     * Puts a frame on a channel, applying its fault policy; it enters the wire {@code notBeforeNanos}
     * from now (a switch's processing time). The frame array is owned by the simulator.
     */
    private void transmit(Channel ch, byte[] frame, int originHost, long notBeforeNanos) {
        if (ch.cuts > 0) {
            log.record(now, EventKind.DROP, ch.name(), "partitioned", frame);
            return;
        }
        LinkFaults f = ch.faults;
        RandomSource r = ch.random;
        if (r.chance(f.dropProbability())) {
            log.record(now, EventKind.DROP, ch.name(), "link fault", frame);
            return;
        }
        int copies = 1;
        if (r.chance(f.duplicateProbability())) {
            copies = 2;
            log.record(now, EventKind.DUPLICATE, ch.name(), null, frame);
        }
        for (int copy = 0; copy < copies; copy++) {
            long delay = f.minDelayNanos();
            if (f.maxDelayNanos() > f.minDelayNanos()) {
                delay += r.nextLong(f.maxDelayNanos() - f.minDelayNanos() + 1);
            }
            if (r.chance(f.reorderProbability())) {
                delay += 1 + r.nextLong(f.reorderExtraNanos());
            }
            if (ch.inFlight >= maxInFlightPerChannel) {
                log.record(now, EventKind.DROP, ch.name(), "queue full", frame);
                continue;
            }
            ch.inFlight++;
            long targetEpoch = switch (ch.to) {
                case HostSlot h -> h.epoch;
                case SwitchPort sp -> sp.sw.epoch;
            };
            push(now + notBeforeNanos + delay, new Arrival(ch, copy == 0 ? frame : frame.clone(), originHost, targetEpoch, ch.cutsBegun, false));
        }
    }

    private void runHandler(HostSlot h, String what, Runnable handler) {
        if (current != null) {
            throw failure("handler of " + h.name() + " started inside the handler of " + current.name(), null);
        }
        current = h;
        try {
            handler.run();
        } catch (SimulationFailure f) {
            throw f;
        } catch (RuntimeException | Error e) {
            throw failure(h.name() + " threw in " + what + ": " + e, e);
        } finally {
            current = null;
        }
    }

    private void startHost(HostSlot h) {
        if (h.up) {
            throw failure("start of " + h.name() + " which is already up", null);
        }
        h.up = true;
        h.epoch++;
        h.pausedUntil = 0;
        int incarnation = h.starts++;
        SimContext ctx = new SimContext(h, h.epoch, incarnation, h.randoms.fork("incarnation-" + incarnation));
        h.context = ctx;
        h.node = h.factory.create();
        if (h.node == null) {
            throw failure("node factory of " + h.name() + " returned null", null);
        }
        log.record(now, EventKind.START, h.name(), "incarnation " + incarnation, null);
        Node node = h.node;
        runHandler(h, "onStart", () -> node.onStart(ctx));
    }

    private void startSwitch(SimSwitch sw) {
        sw.device = sw.factory.get();
        if (sw.device == null) {
            throw failure("switch factory of " + sw.name + " returned null", null);
        }
        sw.up = true;
        sw.epoch++;
        log.record(now, EventKind.START, sw.name, "switch", null);
    }

    private void beginPartition(Partition p) {
        log.record(now, EventKind.ACTION, "sim", "partition " + p.name + " begins", null);
        p.active = true;
        partitions.add(p);
        for (Channel ch : p.cut) {
            ch.cuts++;
            ch.cutsBegun++;
        }
        for (int pair : p.blockedPairs) {
            blockedPairs.merge(pair, 1, Integer::sum);
        }
    }

    private void endPartition(Partition p) {
        if (!p.active) {
            return; // already ended by a heal
        }
        log.record(now, EventKind.ACTION, "sim", "partition " + p.name + " ends", null);
        p.active = false;
        partitions.remove(p);
        for (Channel ch : p.cut) {
            ch.cuts--;
        }
        for (int pair : p.blockedPairs) {
            blockedPairs.computeIfPresent(pair, (k, n) -> n == 1 ? null : n - 1);
        }
    }

    private HostSlot host(int hostNumber) {
        HostSlot h = hosts.get(hostNumber);
        if (h == null) {
            throw new IllegalArgumentException("no host " + hostNumber + "; hosts are " + hosts.keySet());
        }
        return h;
    }

    private void requireOwnSwitch(SimSwitch sw) {
        if (sw == null || switches.get(sw.name) != sw) {
            throw new IllegalArgumentException("switch " + sw + " is not part of this simulation");
        }
    }

    private void requireWindow(long start, long end) {
        if (start < now || end <= start) {
            throw new IllegalArgumentException("bad window [" + start + ", " + end + ") at now=" + now);
        }
    }

    private static void requireName(String name) {
        if (name == null || !name.matches("[A-Za-z0-9_-]{1,32}")) {
            throw new IllegalArgumentException("names are 1..32 of [A-Za-z0-9_-]: " + name);
        }
    }

    private static int pairKey(int from, int to) {
        return (from << 16) | to;
    }

    // ------------------------------------------------------------------ internals

    private record Monitor(String name, BooleanSupplier holds) {
    }

    private record Pending(long time, long sequence, Event event) implements Comparable<Pending> {
        @Override
        public int compareTo(Pending o) {
            int c = Long.compare(time, o.time);
            return c != 0 ? c : Long.compare(sequence, o.sequence);
        }
    }

    private sealed interface Event permits Scheduled, TimerFire, Arrival {
    }

    private record Scheduled(Runnable action) implements Event {
    }

    private record TimerFire(HostSlot host, long epoch, long timerId) implements Event {
    }

    private record Arrival(Channel channel, byte[] frame, int originHost, long targetEpoch, long cutsBegunAtSend,
                           boolean bufferedAtHost) implements Event {
    }

    record SwitchPort(SimSwitch sw, int port) implements Endpoint {
    }

    private static final class Partition {
        final String name;
        final List<Channel> cut;
        final List<Integer> blockedPairs;
        boolean active;

        Partition(String name, List<Channel> cut, List<Integer> blockedPairs) {
            this.name = name;
            this.cut = cut;
            this.blockedPairs = blockedPairs;
        }
    }

    /** Everything the simulator knows about one host across incarnations. */
    static final class HostSlot implements Endpoint {
        final int number;
        final NodeFactory factory;
        final RandomSource randoms;
        final SimDurableStore durable;
        Channel uplink;
        HostLink link;
        Node node;
        SimContext context;
        boolean up;
        /** Advances at every start and crash; timers and inbound frames of an older epoch are void. */
        long epoch;
        int starts;
        /** While the clock is before this, the host is frozen and its events wait (see pauseHost). */
        long pausedUntil;
        /** Ids of timers scheduled and neither fired nor cancelled (membership only, never iterated). */
        final Set<Long> pendingTimers = new HashSet<>();

        HostSlot(int number, NodeFactory factory, RandomSource randoms, SimDurableStore durable) {
            this.number = number;
            this.factory = factory;
            this.randoms = randoms;
            this.durable = durable;
        }

        String name() {
            return "h" + number;
        }
    }

    /** The context of one incarnation of one host; dead once the host crashes. */
    private final class SimContext implements NodeContext, Clock, Network, Timers {
        private final HostSlot host;
        private final long epoch;
        private final int incarnation;
        private final RandomSource random;
        private long nextTimerId = 1;

        SimContext(HostSlot host, long epoch, int incarnation, RandomSource random) {
            this.host = host;
            this.epoch = epoch;
            this.incarnation = incarnation;
            this.random = random;
        }

        /** Protocol code may act only from its own handler and only in its own, living incarnation. */
        private void requireActive(String what) {
            if (host.epoch != epoch || !host.up) {
                throw new IllegalStateException(host.name() + " incarnation " + incarnation + " used its context ("
                        + what + ") after it crashed");
            }
            if (current != host) {
                throw new IllegalStateException(host.name() + "'s context used (" + what + ") outside its own handler"
                        + (current == null ? "" : ", from " + current.name() + "'s"));
            }
        }

        @Override
        public int hostNumber() {
            return host.number;
        }

        @Override
        public int incarnation() {
            return incarnation;
        }

        @Override
        public Clock clock() {
            return this;
        }

        @Override
        public RandomSource random() {
            return random;
        }

        @Override
        public Network network() {
            return this;
        }

        @Override
        public Timers timers() {
            return this;
        }

        @Override
        public DurableStore durable() {
            return host.durable;
        }

        @Override
        public void log(String message) {
            requireActive("log");
            log.record(now, EventKind.NODE_LOG, host.name(), message, null);
        }

        @Override
        public void trace(TraceEvent event) {
            requireActive("trace");
            if (traceEvents != null) {
                traceEvents.add(new RecordedTraceEvent(now, host.number, incarnation, Objects.requireNonNull(event)));
            }
        }

        @Override
        public long nowNanos() {
            return now;
        }

        @Override
        public void send(byte[] frame) {
            requireActive("send");
            Network.requireSendable(frame);
            byte[] copy = frame.clone();
            log.record(now, EventKind.SEND, host.name(), null, copy);
            transmit(host.uplink, copy, host.number, 0);
        }

        @Override
        public long schedule(long delayNanos) {
            requireActive("schedule timer");
            if (delayNanos < 0) {
                throw new IllegalArgumentException("timer delay must be >= 0: " + delayNanos);
            }
            if (host.pendingTimers.size() >= MAX_PENDING) {
                throw new IllegalStateException(host.name() + " has " + MAX_PENDING + " pending timers (leak?)");
            }
            if (delayNanos > Long.MAX_VALUE - now) {
                throw new IllegalArgumentException("timer delay overflows the clock: " + delayNanos);
            }
            long id = nextTimerId++;
            host.pendingTimers.add(id);
            push(now + delayNanos, new TimerFire(host, epoch, id));
            return id;
        }

        @Override
        public boolean cancel(long timerId) {
            requireActive("cancel timer");
            return host.pendingTimers.remove(timerId);
        }
    }

    /** The protocol trace events recorded so far, in run order (empty unless the builder asked to record them). */
    public List<RecordedTraceEvent> traceEvents() {
        return traceEvents == null ? List.of() : Collections.unmodifiableList(traceEvents);
    }

    /** Writes the recorded trace events as NDJSON, one event a line (docs/conformance.md). */
    public void writeTraceEvents(Path file) {
        if (traceEvents == null) {
            throw new IllegalStateException("this simulation does not record trace events (Builder.recordTraceEvents)");
        }
        try {
            if (file.getParent() != null) {
                Files.createDirectories(file.getParent());
            }
            try (var out = Files.newBufferedWriter(file)) {
                for (RecordedTraceEvent e : traceEvents) {
                    out.write(e.toJsonLine());
                    out.write('\n');
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("writing trace events to " + file, e);
        }
    }

    /** Unmodifiable view used by fault plans. */
    List<HostLink> hostLinks() {
        List<HostLink> links = new ArrayList<>();
        for (HostSlot h : hosts.values()) {
            links.add(h.link);
        }
        return Collections.unmodifiableList(links);
    }

    LinkFaults defaultFaults() {
        return defaultFaults;
    }
}
