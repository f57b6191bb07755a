package dev.innet.conformance;

import dev.innet.p4sim.bmv2.Bmv2CliControl;
import dev.innet.p4sim.bmv2.Bmv2Tools;
import dev.innet.p4sim.ports.AfPacketPort;
import dev.innet.protocol.spec.ReplayTarget;
import dev.innet.switchapi.SwitchControl;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * A replay target that is a real {@code simple_switch} process (bmv2) running the protocol's program as p4c
 * compiled it (docs/conformance.md, "bmv2"). Each switch port is a veth pair: the switch's end lives in a network
 * namespace the {@link Rig} makes, the other end stays in this process's namespace, where an AF_PACKET socket
 * sends the replay's frames in and reads what the switch sends out. The control API is bmv2's runtime CLI
 * ({@link Bmv2CliControl}, run inside the namespace, where the Thrift port is).
 *
 * <p>Quiescence: bmv2 says nothing when it has finished with a frame, so a step ends by time. After a frame is
 * sent, the target waits up to {@code firstFrameWait} for a first output frame (none: the switch dropped it),
 * then collects outputs until none has arrived for {@code quietGap}. A frame that arrives after its step was
 * declared over is not silently given to the next step: the next {@link #inject} finds it waiting and fails,
 * naming it, so slowness shows up as an error asking for longer waits, never as a passing replay.
 */
public final class Bmv2ReplayTarget implements ReplayTarget {
    private final Rig rig;
    private final Slot slot;

    private Bmv2ReplayTarget(Rig rig, Slot slot) {
        this.rig = rig;
        this.slot = slot;
    }

    @Override
    public List<Emitted> inject(int port, byte[] frame) {
        AfPacketPort in = slot.hostPorts.get(port);
        if (in == null) {
            throw new IllegalArgumentException("bmv2 replay target: port " + port + " is not cabled (ports " + rig.ports + ")");
        }
        Emitted late = slot.arrivals.poll();
        if (late != null) {
            throw new IllegalStateException("bmv2 replay target: a " + late.frame().length + "-byte frame on port " + late.port()
                    + " arrived after its step was declared quiescent (first-frame wait " + rig.firstFrameWait.toMillis()
                    + " ms, quiet gap " + rig.quietGap.toMillis() + " ms): raise them (--bmv2-wait, --bmv2-quiet)");
        }
        try {
            in.send(frame, 0, frame.length);
            List<Emitted> out = new ArrayList<>(2);
            Emitted e = slot.arrivals.poll(rig.firstFrameWait.toNanos(), TimeUnit.NANOSECONDS);
            while (e != null) {
                out.add(e);
                e = slot.arrivals.poll(rig.quietGap.toNanos(), TimeUnit.NANOSECONDS);
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException("bmv2 replay target: sending on port " + port, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("bmv2 replay target: interrupted", e);
        }
    }

    @Override
    public SwitchControl control() {
        return slot.control;
    }

    /** Kills simple_switch (SIGKILL, with whatever it runs) and starts a new one: fresh pipeline, empty state. */
    @Override
    public void crash() {
        rig.stop(slot);
        slot.arrivals.clear();
        rig.start(slot);
    }

    /** A second simple_switch of the same JSON, on its own veth pairs and Thrift port. */
    @Override
    public ReplayTarget another() {
        return rig.newTarget();
    }

    /** One switch's cabling: its veth pairs, the sockets on this side, the frames they received. */
    private static final class Slot {
        final int index;
        final Map<Integer, AfPacketPort> hostPorts = new LinkedHashMap<>();
        final List<String> switchInterfaces = new ArrayList<>();
        final LinkedBlockingQueue<Emitted> arrivals = new LinkedBlockingQueue<>();
        final List<Thread> readers = new ArrayList<>();
        Process process;
        Bmv2CliControl control;
        boolean busy;

        Slot(int index) {
            this.index = index;
        }
    }

    /**
     * What the targets of one run share: the namespace, the program compiled once, and the veth slots (one per
     * switch alive at a time; a slot is reused by later switches). {@link #close} stops every switch and deletes
     * the namespace, which removes every veth pair; a shutdown hook does the same if the run is cut short.
     */
    public static final class Rig implements AutoCloseable {
        private static final AtomicInteger RIGS = new AtomicInteger();
        private static final int FIRST_THRIFT_PORT = 9090;
        private static final Duration SWITCH_START = Duration.ofSeconds(90);

        private final Bmv2Tools tools;
        private final List<Integer> ports;
        private final Duration firstFrameWait;
        private final Duration quietGap;
        private final Path workDir;
        private final Path json;
        private final Path cliInNamespace;
        private final String namespace;
        private final String hostPrefix;
        private final List<Slot> slots = new ArrayList<>();
        private final List<Bmv2ReplayTarget> generation = new ArrayList<>();
        private final Thread cleanup = new Thread(this::close, "bmv2-rig-cleanup");
        private int switchesStarted;
        private boolean closed;

        /**
         * Compiles {@code program} with p4c ({@code p4/} of the repository on the include path) into
         * {@code workDir} and makes the namespace. {@code ports}: the switch ports to cable (an output on any other
         * port is lost, as on a switch with nothing there).
         */
        public Rig(Bmv2Tools tools, Path repositoryRoot, Path program, List<Integer> ports, Duration firstFrameWait,
                Duration quietGap, Path workDir) throws IOException {
            if (ports.isEmpty() || ports.stream().anyMatch(p -> p < 0 || p > 510)) {
                throw new IllegalArgumentException("bmv2 replay target: ports must be 0..510 and at least one: " + ports);
            }
            if (firstFrameWait.isNegative() || firstFrameWait.isZero() || quietGap.isNegative() || quietGap.isZero()) {
                throw new IllegalArgumentException("bmv2 replay target: the waits must be positive");
            }
            this.tools = tools;
            this.ports = List.copyOf(ports);
            this.firstFrameWait = firstFrameWait;
            this.quietGap = quietGap;
            this.workDir = Files.createDirectories(workDir.toAbsolutePath());
            int n = RIGS.incrementAndGet();
            long pid = ProcessHandle.current().pid();
            this.namespace = "innet-conf-" + pid + "-" + n;
            // interface names have at most 15 characters: "ic" + 4 + 1 hex digits + "s<slot>p<port>"
            this.hostPrefix = "ic" + Long.toHexString(pid & 0xFFFF) + Integer.toHexString(n & 0xF);
            List<String> compile = tools.compileCommand(program, repositoryRoot.resolve("p4"), this.workDir);
            int rc = run(compile, this.workDir.resolve("p4c.log"));
            this.json = Bmv2Tools.jsonOf(program, this.workDir);
            if (rc != 0 || !Files.isRegularFile(json)) {
                throw new IOException("p4c could not compile " + program + " for bmv2 (" + String.join(" ", compile) + ", exit " + rc
                        + "): " + tail(this.workDir.resolve("p4c.log")));
            }
            // simple_switch_CLI must reach the Thrift port inside the namespace: Bmv2CliControl runs this wrapper
            this.cliInNamespace = this.workDir.resolve("simple_switch_CLI-in-" + namespace);
            Files.writeString(cliInNamespace, "#!/bin/sh\nexec ip netns exec " + namespace + " '" + tools.cli() + "' \"$@\"\n");
            Files.setPosixFilePermissions(cliInNamespace, PosixFilePermissions.fromString("rwxr-xr-x"));
            Runtime.getRuntime().addShutdownHook(cleanup);
            if (run(List.of("ip", "netns", "add", namespace), this.workDir.resolve("ip.log")) != 0) {
                Runtime.getRuntime().removeShutdownHook(cleanup);
                throw new IOException("cannot make network namespace " + namespace + " (needs root): " + tail(this.workDir.resolve("ip.log")));
            }
            // no IPv6 on the switch's ends: router solicitations would reach the switch as stray frames
            ip("netns", "exec", namespace, "sysctl", "-qw", "net.ipv6.conf.all.disable_ipv6=1");
            ip("netns", "exec", namespace, "sysctl", "-qw", "net.ipv6.conf.default.disable_ipv6=1");
            ip("-n", namespace, "link", "set", "lo", "up");
        }

        /** Each call: a new, empty switch for the next trace; the switches of the previous trace are stopped. */
        public Supplier<ReplayTarget> factory() {
            return () -> {
                synchronized (this) {
                    for (Bmv2ReplayTarget t : generation) {
                        stop(t.slot);
                        t.slot.busy = false;
                    }
                    generation.clear();
                    return newTarget();
                }
            };
        }

        /** simple_switch processes started so far (first starts and restarts after crashes). */
        public synchronized int switchesStarted() {
            return switchesStarted;
        }

        synchronized Bmv2ReplayTarget newTarget() {
            if (closed) {
                throw new IllegalStateException("bmv2 replay target: the rig is closed");
            }
            Slot slot = slots.stream().filter(s -> !s.busy).findFirst().orElseGet(this::cable);
            slot.busy = true;
            slot.arrivals.clear();
            start(slot);
            Bmv2ReplayTarget t = new Bmv2ReplayTarget(this, slot);
            generation.add(t);
            return t;
        }

        /** A new slot: one veth pair per port, IPv6 off on this side, a reader thread per socket. */
        private Slot cable() {
            Slot slot = new Slot(slots.size());
            slots.add(slot);
            try {
                for (int port : ports) {
                    String host = hostPrefix + "s" + slot.index + "p" + port;
                    String sw = "s" + slot.index + "p" + port;
                    ip("link", "add", host, "type", "veth", "peer", "name", sw, "netns", namespace);
                    Files.writeString(Path.of("/proc/sys/net/ipv6/conf", host, "disable_ipv6"), "1");
                    ip("link", "set", "dev", host, "up");
                    ip("-n", namespace, "link", "set", "dev", sw, "up");
                    slot.switchInterfaces.add(port + "@" + sw);
                    AfPacketPort socket = new AfPacketPort(host, 16_384);
                    slot.hostPorts.put(port, socket);
                    Thread reader = Thread.ofPlatform().daemon().name("bmv2-port-" + host).start(() -> read(socket, port, slot));
                    slot.readers.add(reader);
                }
            } catch (IOException e) {
                throw new UncheckedIOException("bmv2 replay target: cabling switch " + slot.index, e);
            }
            return slot;
        }

        private static void read(AfPacketPort socket, int port, Slot slot) {
            byte[] buf = new byte[16_384];
            try {
                int n;
                while ((n = socket.receive(buf)) >= 0) {
                    slot.arrivals.add(new Emitted(port, Arrays.copyOf(buf, n)));
                }
            } catch (IOException e) {
                // the socket failed (the rig is closing, or the interface went away): nothing more arrives
            }
        }

        /** Starts simple_switch on the slot's interfaces; returns once its runtime CLI answers. */
        synchronized void start(Slot slot) {
            int thrift = FIRST_THRIFT_PORT + slot.index;
            List<String> cmd = new ArrayList<>(List.of("ip", "netns", "exec", namespace));
            cmd.addAll(tools.switchCommand(slot.switchInterfaces, thrift, json));
            Path log = workDir.resolve("switch" + slot.index + "-" + (++switchesStarted) + ".log");
            try {
                slot.process = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
                long deadline = System.nanoTime() + SWITCH_START.toNanos();
                while (true) {
                    if (!slot.process.isAlive()) {
                        throw new IOException("simple_switch exited (" + slot.process.exitValue() + "): " + tail(log));
                    }
                    try {
                        slot.control = new Bmv2CliControl(cliInNamespace, thrift);
                        return;
                    } catch (IOException notYet) {
                        if (System.nanoTime() > deadline) {
                            throw new IOException("simple_switch's Thrift port " + thrift + " did not answer within "
                                    + SWITCH_START.toSeconds() + " s: " + notYet.getMessage() + "; switch log: " + tail(log));
                        }
                        Thread.sleep(200);
                    }
                }
            } catch (IOException e) {
                stop(slot);
                throw new UncheckedIOException("bmv2 replay target: " + String.join(" ", cmd), e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                stop(slot);
                throw new IllegalStateException("bmv2 replay target: interrupted starting simple_switch", e);
            }
        }

        /** Closes the CLI and kills the switch process and everything it started, by their pids. */
        synchronized void stop(Slot slot) {
            if (slot.control != null) {
                slot.control.close();
                slot.control = null;
            }
            if (slot.process != null) {
                slot.process.descendants().forEach(ProcessHandle::destroyForcibly);
                slot.process.destroyForcibly();
                try {
                    slot.process.waitFor(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                slot.process = null;
            }
        }

        @Override
        public synchronized void close() {
            if (closed) {
                return;
            }
            closed = true;
            for (Slot s : slots) {
                stop(s);
                s.hostPorts.values().forEach(AfPacketPort::close);
            }
            try {
                // deleting the namespace deletes the switch's veth ends, and with them this side's
                run(List.of("ip", "netns", "del", namespace), workDir.resolve("ip.log"));
            } catch (IOException e) {
                System.err.println("bmv2 replay target: could not delete namespace " + namespace + ": " + e.getMessage());
            }
            if (Thread.currentThread() != cleanup) {
                try {
                    Runtime.getRuntime().removeShutdownHook(cleanup);
                } catch (IllegalStateException shuttingDown) {
                    // the JVM is already exiting: the hook runs anyway, and finds the rig closed
                }
            }
        }

        private void ip(String... args) throws IOException {
            List<String> cmd = new ArrayList<>(List.of("ip"));
            cmd.addAll(List.of(args));
            Path log = workDir.resolve("ip.log");
            if (run(cmd, log) != 0) {
                throw new IOException(String.join(" ", cmd) + " failed: " + tail(log));
            }
        }

        /** Runs a command to completion, its output appended to {@code log}; its exit status. */
        private static int run(List<String> cmd, Path log) throws IOException {
            Files.writeString(log, "$ " + String.join(" ", cmd) + "\n", StandardCharsets.UTF_8,
                    java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND);
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
            try {
                return p.waitFor();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                p.destroyForcibly();
                throw new IOException("interrupted: " + String.join(" ", cmd), e);
            }
        }

        private static String tail(Path log) {
            try {
                List<String> lines = Files.readAllLines(log);
                return String.join(" | ", lines.subList(Math.max(0, lines.size() - 5), lines.size())).strip();
            } catch (IOException e) {
                return "(no log " + log + ")";
            }
        }
    }
}
