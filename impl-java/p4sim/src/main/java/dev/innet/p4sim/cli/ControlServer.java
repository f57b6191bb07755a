package dev.innet.p4sim.cli;

import dev.innet.switchapi.ControlException;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The control port of a p4sim process: a TCP socket on the loopback interface speaking bmv2's runtime
 * CLI commands, one per line. Each command's reply is its output lines followed by a status line,
 * {@code ok} or {@code error: <message>}, so {@code nc localhost PORT < s1-commands.txt} works and a
 * client can tell where a reply ends. Commands run under {@code lock}, the lock that also guards the
 * packet path, so the switch only ever sees one request at a time.
 */
public final class ControlServer implements AutoCloseable {
    private static final String PORT_FAULT = "p4sim_port_fault";
    private final ServerSocket server;
    private final CliSession session;
    private final Object lock;
    private final Thread acceptor;
    private volatile dev.innet.p4sim.ports.PortFaults faults;
    /** Connections that asked for events (p4sim_events): packet-ins and digests, one line each. */
    private final java.util.List<java.util.concurrent.BlockingQueue<String>> eventStreams = new java.util.concurrent.CopyOnWriteArrayList<>();

    /** Told of every command that changed the switch's state, under the switch lock, right after it took effect. */
    public interface WriteObserver {
        void applied(String command);
    }

    /**
     * The CLI commands that change tables, registers, counters, meters, sessions or value sets; the others
     * (reads, dumps, help) leave the switch as it was.
     */
    private static final java.util.regex.Pattern WRITE = java.util.regex.Pattern.compile(
            "(table_(add|delete|modify|set_default|reset_default|clear|indirect_.*)|register_(write|reset)|counter_(write|reset)"
                    + "|meter_(set_.*|array_set_.*)|mirroring_(add|add_mc|delete)|mc_(?!dump).*|act_prof_(?!dump).*"
                    + "|pvs_(add|remove|clear)|set_crc.*|reset_state"
                    // RemoteSwitchControl's own commands (the controllers' writes): missing here until 2026-12-02, so
                    // a live rack's trace had no switchControl line for any controller's table or register write
                    + "|p4sim_(table_(add|delete|modify|indirect_add)|register_write|direct_meter_set|mc_group_(set|delete)))");

    private volatile WriteObserver writes;

    public ControlServer(int port, CliSession session, Object lock) throws IOException {
        this.server = new ServerSocket(port, 16, InetAddress.getLoopbackAddress());
        this.session = session;
        this.lock = lock;
        session.control().onPacketIn(p -> publish("packet_in " + java.util.HexFormat.of().formatHex(p.frame())));
        session.control().onDigest(d -> {
            StringBuilder sb = new StringBuilder("digest ").append(d.receiver());
            for (java.math.BigInteger v : d.values()) {
                sb.append(" 0x").append(v.toString(16));
            }
            publish(sb.toString());
        });
        this.acceptor = Thread.ofPlatform().daemon().name("p4sim-control").start(this::acceptLoop);
    }

    public int port() {
        return server.getLocalPort();
    }

    /**
     * Serves {@code p4sim_port_fault} with {@code faults} (a live switch's output-port faults); without
     * this call the command is unknown.
     */
    public void portFaults(dev.innet.p4sim.ports.PortFaults faults) {
        this.faults = faults;
    }

    /** Reports every state-changing command to {@code observer} (p4sim --trace-frames: the switch's {@code switchControl} events). */
    public void observeWrites(WriteObserver observer) {
        this.writes = observer;
    }

    /** Whether CLI command line {@code command} changes the switch's state. */
    static boolean isWrite(String command) {
        String name = command.strip().split("\\s+", 2)[0];
        return WRITE.matcher(name).matches();
    }

    private void acceptLoop() {
        while (!server.isClosed()) {
            try {
                Socket s = server.accept();
                Thread.ofPlatform().daemon().name("p4sim-control-conn").start(() -> serve(s));
            } catch (IOException e) {
                if (!server.isClosed()) {
                    System.err.println("p4sim control port: " + e.getMessage());
                }
            }
        }
    }

    /** Called under the switch lock: never blocks, slow event readers lose events beyond 65536 queued. */
    private void publish(String event) {
        for (java.util.concurrent.BlockingQueue<String> q : eventStreams) {
            q.offer(event);
        }
    }

    private void streamEvents(PrintWriter out) {
        java.util.concurrent.BlockingQueue<String> q = new java.util.concurrent.LinkedBlockingQueue<>(65536);
        eventStreams.add(q);
        try {
            out.print("ok\n");
            out.flush();
            while (!out.checkError()) {
                String e = q.poll(200, java.util.concurrent.TimeUnit.MILLISECONDS);
                if (e != null) {
                    out.print(e);
                    out.print('\n');
                    out.flush();
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            eventStreams.remove(q);
        }
    }

    private void serve(Socket s) {
        try (s;
             BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8));
             PrintWriter out = new PrintWriter(s.getOutputStream(), false, StandardCharsets.UTF_8)) {
            String line;
            while ((line = in.readLine()) != null) {
                if (line.strip().equals("p4sim_events")) {
                    streamEvents(out);
                    return;
                }
                for (String reply : handle(line)) {
                    out.print(reply);
                    out.print('\n');
                }
                out.flush();
            }
        } catch (IOException e) {
            // client went away; nothing to clean up
        }
    }

    /** Output lines then the status line. */
    List<String> handle(String line) {
        List<String> outLines;
        String command = line.strip();
        if (faults != null && (command.equals(PORT_FAULT) || command.startsWith(PORT_FAULT + " "))) {
            try {
                // not under the switch lock: the faults have their own, and a frame in flight is unaffected
                List<String> all = new java.util.ArrayList<>(faults.execute(command.substring(PORT_FAULT.length())));
                all.add("ok");
                return all;
            } catch (IllegalArgumentException e) {
                return List.of("error: " + e.getMessage());
            }
        }
        try {
            synchronized (lock) {
                outLines = session.execute(line);
                WriteObserver observer = writes;
                if (observer != null && isWrite(command)) {
                    // under the lock: no frame is processed between the change and its stamp
                    observer.applied(command);
                }
            }
        } catch (ControlException | IllegalArgumentException e) {
            return List.of("error: " + e.getMessage().replace('\n', ' '));
        }
        java.util.ArrayList<String> all = new java.util.ArrayList<>();
        for (String o : outLines) {
            all.addAll(List.of(o.split("\n")));
        }
        all.add("ok");
        return all;
    }

    @Override
    public void close() throws IOException {
        server.close();
        acceptor.interrupt();
    }
}
