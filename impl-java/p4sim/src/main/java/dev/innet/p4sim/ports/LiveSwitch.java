package dev.innet.p4sim.ports;

import dev.innet.p4sim.v1model.P4Switch;
import dev.innet.p4sim.v1model.PacketSink;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A p4sim switch attached to Linux interfaces, as {@code simple_switch -i 0@veth0 ...} is: one reader
 * thread per interface feeds frames to the switch under a single lock (the switch itself is
 * single-threaded), and output frames go out on the interface mapped to their egress port.
 * Frames for an unmapped port are counted and dropped.
 */
public final class LiveSwitch implements AutoCloseable {
    private final P4Switch sw;
    private final Object lock;
    private final Map<Integer, AfPacketPort> ports = new TreeMap<>();
    private final List<Thread> readers = new ArrayList<>();
    private volatile long unmappedPortDrops;
    private volatile long sendErrors;
    private PortFaults faults;
    private DelayedSender delayed;

    public LiveSwitch(P4Switch sw, Object lock) {
        this.sw = sw;
        this.lock = lock;
    }

    /**
     * The port faults of this switch (delay, duplication, reordering on output), seeded with {@code seed};
     * call after every {@link #attach} and before {@link #start}. All ports start without faults.
     */
    public PortFaults enableFaults(long seed) {
        faults = new PortFaults(seed, ports.keySet());
        return faults;
    }

    /** Attaches {@code ifname} as switch port {@code port}; call before {@link #start}. */
    public void attach(int port, String ifname) throws IOException {
        if (ports.containsKey(port)) {
            throw new IllegalArgumentException("port " + port + " attached twice");
        }
        ports.put(port, new AfPacketPort(ifname, sw.config().maxPacketBytes()));
    }

    public void start() {
        PacketSink sink = (port, buf, off, len) -> {
            AfPacketPort out = ports.get(port);
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
                out.send(buf, off, len);
            } catch (IOException e) {
                sendErrors++;
            }
        };
        if (faults != null) {
            delayed = new DelayedSender(() -> sendErrors++);
        }
        synchronized (lock) {
            sw.setPacketOutSink(sink);
        }
        for (Map.Entry<Integer, AfPacketPort> e : ports.entrySet()) {
            int port = e.getKey();
            AfPacketPort in = e.getValue();
            readers.add(Thread.ofPlatform().name("p4sim-rx-" + in.name()).daemon().start(() -> {
                byte[] buf = new byte[sw.config().maxPacketBytes() + 1];
                try {
                    while (true) {
                        int n = in.receive(buf);
                        if (n < 0) {
                            return;
                        }
                        synchronized (lock) {
                            sw.process(port, buf, 0, n, sink);
                        }
                    }
                } catch (IOException ex) {
                    System.err.println("p4sim: port " + port + " (" + in.name() + "): " + ex.getMessage());
                }
            }));
        }
    }

    public long unmappedPortDrops() {
        return unmappedPortDrops;
    }

    public long sendErrors() {
        return sendErrors;
    }

    @Override
    public void close() {
        if (delayed != null) {
            delayed.close();
        }
        for (AfPacketPort p : ports.values()) {
            p.close();
        }
        try {
            for (Thread t : readers) {
                t.join(2000);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
