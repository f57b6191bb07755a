package dev.innet.p4sim.ports;

import dev.innet.p4sim.v1model.P4Switch;
import dev.innet.p4sim.v1model.PacketSink;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A p4sim switch attached to Linux interfaces, as {@code simple_switch -i 0@veth0 ...} is. Output frames
 * go out on the interface mapped to their egress port; frames for an unmapped port are counted and dropped.
 *
 * <p>Two ways to move frames ({@link Io}). {@code RING} (the default): every port is a {@link RingPort}
 * (memory-mapped PACKET_MMAP rings) and ONE pipeline thread drains all receive rings, runs each frame
 * through the switch and queues the outputs in the transmit rings, flushing each ring once per batch.
 * {@code SOCKET}: one plain {@link AfPacketPort} per interface, one reader thread each, one system call
 * per frame each way (the path before rings; kept for kernels without them).
 *
 * <p>The concurrency rule (docs/p4sim.md, "Live ports"): each packet's whole trip through the switch
 * (all its passes, every register it touches) runs under {@code lock}, the lock the control port also
 * takes, so a packet is atomic with respect to other packets and to control commands. In ring mode only
 * the pipeline thread processes packets; it takes the lock once per batch (at most {@link #BATCH_BLOCKS}
 * receive blocks), so a control command waits at most one batch.
 */
public final class LiveSwitch implements AutoCloseable {
    /** How frames move between the interfaces and the switch. */
    public enum Io { RING, SOCKET }

    /**
     * Sees each frame the pipeline takes in, then each frame it emits while processing that one, in the
     * order the pipeline handles them: called under the switch lock (so the calls of different ports' frames
     * never interleave), before the frame is processed and before each output is queued, sent or delayed.
     * What it records of a frame therefore happens before anything that frame causes on another host.
     */
    public interface FrameObserver {
        void received(int port, byte[] buf, int off, int len);

        void emitted(int port, byte[] buf, int off, int len);
    }

    /** Receive blocks drained per port per batch: bounds how long the control port waits for the lock. */
    static final int BATCH_BLOCKS = 2;
    private static final int IDLE_POLL_MILLIS = 50;

    private final P4Switch sw;
    private final Object lock;
    private final PrintStream log;
    private Io io;
    private final RingPort.Geometry geometry;
    private final Map<Integer, String> interfaces = new TreeMap<>();
    private final Map<Integer, AfPacketPort> sockets = new TreeMap<>();
    private final Map<Integer, RingPort> rings = new TreeMap<>();
    /** Output port number to sender; {@code null} where no interface is attached. */
    private final FrameSender[] byPort = new FrameSender[512];
    private final RingPort[] ringByPort = new RingPort[512];
    private final List<Thread> threads = new ArrayList<>();
    private volatile boolean running;
    private volatile long unmappedPortDrops;
    private volatile long sendErrors;
    private PortFaults faults;
    private DelayedSender delayed;
    private FrameObserver observer;

    /** A switch on memory-mapped rings, falling back to plain sockets (with a message on stderr) where rings fail. */
    public LiveSwitch(P4Switch sw, Object lock) {
        this(sw, lock, Io.RING, System.err);
    }

    public LiveSwitch(P4Switch sw, Object lock, Io io, PrintStream log) {
        this(sw, lock, io, log, RingPort.Geometry.forMaxFrame(sw.config().maxPacketBytes()));
    }

    /** With rings of the given sizes (a geometry the kernel refuses makes the switch fall back to sockets). */
    public LiveSwitch(P4Switch sw, Object lock, Io io, PrintStream log, RingPort.Geometry geometry) {
        this.sw = sw;
        this.lock = lock;
        this.io = io;
        this.log = log;
        this.geometry = geometry;
    }

    /** How this switch moves frames: {@code SOCKET} if it was asked for or the rings could not be set up. */
    public Io io() {
        return io;
    }

    /**
     * The port faults of this switch (delay, duplication, reordering on output), seeded with {@code seed};
     * call after every {@link #attach} and before {@link #start}. All ports start without faults.
     */
    public PortFaults enableFaults(long seed) {
        faults = new PortFaults(seed, interfaces.keySet());
        return faults;
    }

    /** Has {@code o} see every frame the pipeline processes and emits ({@link FrameObserver}); call before {@link #start}. */
    public void observeFrames(FrameObserver o) {
        if (!threads.isEmpty()) {
            throw new IllegalStateException("observe frames before the switch starts");
        }
        observer = o;
    }

    /** Attaches {@code ifname} as switch port {@code port}; call before {@link #start}. */
    public void attach(int port, String ifname) throws IOException {
        if (interfaces.containsKey(port)) {
            throw new IllegalArgumentException("port " + port + " attached twice");
        }
        if (port < 0 || port >= byPort.length) {
            throw new IllegalArgumentException("port " + port + " is outside 0.." + (byPort.length - 1));
        }
        if (io == Io.RING) {
            try {
                RingPort r = new RingPort(ifname, geometry);
                rings.put(port, r);
                interfaces.put(port, ifname);
                return;
            } catch (RingPort.RingsUnavailable e) {
                log.println("p4sim: memory-mapped packet rings are unavailable (" + e.getMessage()
                        + "); using plain AF_PACKET sockets, one system call per frame (as with --io socket)");
                fallBackToSockets();
            }
        }
        sockets.put(port, new AfPacketPort(ifname, sw.config().maxPacketBytes()));
        interfaces.put(port, ifname);
    }

    private void fallBackToSockets() throws IOException {
        io = Io.SOCKET;
        for (Map.Entry<Integer, RingPort> e : rings.entrySet()) {
            e.getValue().close();
            sockets.put(e.getKey(), new AfPacketPort(interfaces.get(e.getKey()), sw.config().maxPacketBytes()));
        }
        rings.clear();
    }

    public void start() {
        running = true;
        for (Map.Entry<Integer, RingPort> e : rings.entrySet()) {
            byPort[e.getKey()] = e.getValue();
            ringByPort[e.getKey()] = e.getValue();
        }
        for (Map.Entry<Integer, AfPacketPort> e : sockets.entrySet()) {
            byPort[e.getKey()] = e.getValue();
        }
        if (faults != null) {
            delayed = new DelayedSender(() -> sendErrors++);
        }
        FrameObserver seen = observer;
        PacketSink sink = seen == null ? (port, buf, off, len) -> output(port, buf, off, len, true)
                : (port, buf, off, len) -> {
                    seen.emitted(port, buf, off, len);
                    output(port, buf, off, len, true);
                };
        synchronized (lock) {
            // a control-plane packet-out is sent at once: the pipeline thread may be asleep waiting for input
            sw.setPacketOutSink((port, buf, off, len) -> output(port, buf, off, len, false));
        }
        if (io == Io.RING) {
            threads.add(Thread.ofPlatform().name("p4sim-pipeline").daemon().start(() -> pipeline(sink, seen)));
            return;
        }
        for (Map.Entry<Integer, AfPacketPort> e : sockets.entrySet()) {
            int port = e.getKey();
            AfPacketPort in = e.getValue();
            threads.add(Thread.ofPlatform().name("p4sim-rx-" + in.name()).daemon().start(() -> {
                byte[] buf = new byte[sw.config().maxPacketBytes() + 1];
                try {
                    while (true) {
                        int n = in.receive(buf);
                        if (n < 0) {
                            return;
                        }
                        synchronized (lock) {
                            if (seen != null) {
                                seen.received(port, buf, 0, n);
                            }
                            sw.process(port, buf, 0, n, sink);
                        }
                    }
                } catch (IOException ex) {
                    System.err.println("p4sim: port " + port + " (" + in.name() + "): " + ex.getMessage());
                }
            }));
        }
    }

    /**
     * Where the switch's output frames go: the port's transmit ring (sent at the batch's end if
     * {@code batched}, else at once), its socket, or the delayed sender of a faulty port.
     */
    private void output(int port, byte[] buf, int off, int len, boolean batched) {
        FrameSender out = port >= 0 && port < byPort.length ? byPort[port] : null;
        if (out == null) {
            unmappedPortDrops++;
            return;
        }
        if (faults != null && faults.any()) {
            long[] at = faults.plan(port);
            if (at.length != 1 || at[0] != 0) {
                byte[] copy = java.util.Arrays.copyOfRange(buf, off, off + len);
                for (long delay : at) {
                    delayed.later(delay, out, copy);
                }
                return;
            }
        }
        try {
            RingPort ring = ringByPort[port];
            if (ring != null && batched) {
                ring.enqueue(buf, off, len);
            } else {
                out.send(buf, off, len);
            }
        } catch (IOException e) {
            sendErrors++;
        }
    }

    /** The ring-mode pipeline thread: drain every receive ring, process under the lock, flush every transmit ring. */
    private void pipeline(PacketSink sink, FrameObserver seen) {
        int[] portNumbers = rings.keySet().stream().mapToInt(Integer::intValue).toArray();
        RingPort[] ports = rings.values().toArray(new RingPort[0]);
        byte[] buf = new byte[sw.config().maxPacketBytes() + 1];
        int[] current = new int[1];
        RingPort.Receiver receiver = (MemorySegment ring, long offset, int length) -> {
            int n = Math.min(length, buf.length);
            MemorySegment.copy(ring, ValueLayout.JAVA_BYTE, offset, buf, 0, n);
            if (seen != null) {
                seen.received(current[0], buf, 0, n);
            }
            sw.process(current[0], buf, 0, n, sink);
        };
        try (RingPoller poller = new RingPoller(List.of(ports))) {
            while (running) {
                int frames = 0;
                synchronized (lock) {
                    for (int i = 0; i < ports.length; i++) {
                        current[0] = portNumbers[i];
                        frames += ports[i].drain(receiver, BATCH_BLOCKS);
                    }
                }
                for (RingPort p : ports) {
                    try {
                        p.flush();
                    } catch (IOException e) {
                        sendErrors++;
                    }
                }
                if (frames == 0) {
                    poller.await(IDLE_POLL_MILLIS);
                }
            }
        } catch (IOException | RuntimeException e) {
            if (running) {
                log.println("p4sim: pipeline thread stopped: " + e);
            }
        }
    }

    public long unmappedPortDrops() {
        return unmappedPortDrops;
    }

    /**
     * Frames the kernel dropped because a receive ring was full, summed over the ports, since the last
     * call; always 0 with plain sockets (their drops are not counted here).
     */
    public long receiveDrops() {
        long n = 0;
        for (RingPort r : rings.values()) {
            n += Math.max(0, r.receiveDrops());
        }
        return n;
    }

    public long sendErrors() {
        return sendErrors;
    }

    @Override
    public void close() {
        running = false;
        if (delayed != null) {
            delayed.close();
        }
        for (AfPacketPort p : sockets.values()) {
            p.close();
        }
        try {
            for (Thread t : threads) {
                t.join(2000);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        for (RingPort p : rings.values()) {
            p.close();
        }
    }
}
