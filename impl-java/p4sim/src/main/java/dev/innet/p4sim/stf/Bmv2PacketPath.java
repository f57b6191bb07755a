package dev.innet.p4sim.stf;

import dev.innet.p4sim.ports.AfPacketPort;
import dev.innet.p4sim.ports.IpCommand;
import dev.innet.p4sim.v1model.PacketSink;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * A script's packets through a switch in another process (bmv2's simple_switch, or anything started on the
 * same interfaces): one veth pair per port the script names, the switch on one end ({@link #switchInterfaces}),
 * an AF_PACKET socket and a reader thread on the other. IPv6 is off on both ends, so the kernel's own frames
 * (router solicitations) never reach the switch or the expectations. An output is handed to the sink of the
 * last packet sent before it arrived.
 */
final class Bmv2PacketPath implements StfRunner.PacketPath, AutoCloseable {
    /** The switch is quiet once nothing has come out for this long after the last send or output. */
    private static final long QUIET_NANOS = 150_000_000L;
    /** ... or after this long in all, for a switch that keeps emitting (a loop). */
    private static final long MOST_NANOS = 5_000_000_000L;

    private record Output(int port, byte[] frame, long nanos) { }

    private record Sent(long nanos, PacketSink sink) { }

    private final String prefix;
    private final Map<Integer, AfPacketPort> hostPorts = new TreeMap<>();
    private final List<String> created = new ArrayList<>();
    private final List<String> switchInterfaces = new ArrayList<>();
    private final List<Thread> readers = new ArrayList<>();
    private final ConcurrentLinkedQueue<Output> outputs = new ConcurrentLinkedQueue<>();
    private final List<Sent> sends = new ArrayList<>();
    private volatile long lastArrival;

    /** Cables {@code ports}; the pair of port p is PREFIX + "h" + p (this side) and PREFIX + "s" + p (the switch's). */
    Bmv2PacketPath(java.util.Set<Integer> ports) throws IOException, InterruptedException {
        this.prefix = "isf" + Long.toHexString(ProcessHandle.current().pid() & 0xFFFF);
        try {
            for (int port : ports) {
                String host = prefix + "h" + port;
                String sw = prefix + "s" + port;
                if (!IpCommand.run("link", "add", host, "type", "veth", "peer", "name", sw)) {
                    throw new IOException("cannot create the veth pair " + host + "/" + sw + " (needs CAP_NET_ADMIN)");
                }
                created.add(host);
                for (String end : new String[] {host, sw}) {
                    Files.writeString(Path.of("/proc/sys/net/ipv6/conf", end, "disable_ipv6"), "1");
                    IpCommand.run("link", "set", "dev", end, "up");
                }
                switchInterfaces.add(port + "@" + sw);
                AfPacketPort socket = new AfPacketPort(host, 16_384);
                hostPorts.put(port, socket);
                readers.add(Thread.ofPlatform().daemon().name("stf-bmv2-port-" + port).start(() -> read(socket, port)));
            }
        } catch (IOException | InterruptedException | RuntimeException e) {
            close();
            throw e;
        }
    }

    /** {@code PORT@IFACE} for each port, for simple_switch's {@code -i}. */
    List<String> switchInterfaces() {
        return List.copyOf(switchInterfaces);
    }

    private void read(AfPacketPort socket, int port) {
        byte[] buf = new byte[16_384];
        try {
            int n;
            while ((n = socket.receive(buf)) >= 0) {
                long now = System.nanoTime();
                outputs.add(new Output(port, Arrays.copyOf(buf, n), now));
                lastArrival = now;
            }
        } catch (IOException e) {
            // the port is closing: nothing more arrives
        }
    }

    @Override
    public void send(int port, byte[] frame, PacketSink sink) {
        AfPacketPort p = hostPorts.get(port);
        if (p == null) {
            throw new IllegalArgumentException("port " + port + " is not cabled (the script's ports: " + hostPorts.keySet() + ")");
        }
        sends.add(new Sent(System.nanoTime(), sink));
        try {
            p.send(frame, 0, frame.length);
        } catch (IOException e) {
            throw new IllegalStateException("sending on port " + port + ": " + e.getMessage(), e);
        }
    }

    @Override
    public void quiesce() {
        long start = System.nanoTime();
        long lastSend = sends.isEmpty() ? start : sends.getLast().nanos();
        while (true) {
            long now = System.nanoTime();
            long last = Math.max(lastSend, lastArrival);
            if (now - last >= QUIET_NANOS || now - start >= MOST_NANOS) {
                break;
            }
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        Output o;
        while ((o = outputs.poll()) != null) {
            PacketSink sink = null;
            for (Sent s : sends) {
                if (s.nanos() <= o.nanos()) {
                    sink = s.sink();
                }
            }
            if (sink != null) { // else: before any packet of the script, not the program's doing
                sink.emit(o.port(), o.frame(), 0, o.frame().length);
            }
        }
        // every earlier packet's outputs are in: only the last send can still be an output's cause
        if (sends.size() > 1) {
            Sent last = sends.getLast();
            sends.clear();
            sends.add(last);
        }
    }

    /** Closes the sockets and deletes the pairs this path made (deleting one end removes both). */
    @Override
    public void close() throws InterruptedException {
        hostPorts.values().forEach(AfPacketPort::close);
        for (Thread t : readers) {
            t.join(2000);
        }
        for (String host : created) {
            try {
                IpCommand.run("link", "del", host);
            } catch (IOException e) {
                // already gone
            }
        }
    }
}
