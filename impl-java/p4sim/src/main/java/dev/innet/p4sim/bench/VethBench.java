package dev.innet.p4sim.bench;

import dev.innet.cli.Cli;
import dev.innet.p4sim.ports.IpCommand;
import dev.innet.p4sim.ports.LiveSwitch;
import dev.innet.p4sim.ports.RingPoller;
import dev.innet.p4sim.ports.RingPort;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.locks.LockSupport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * Throughput over a veth pair: the switch on one end (p4sim as a {@link LiveSwitch} on rings or plain
 * sockets, or bmv2's simple_switch: a {@link SwitchUnderTest}), a traffic generator and a reply counter on the other end, both on memory-mapped rings so that they are not
 * the bottleneck. The generator sends the workload packet open-loop, at full speed (saturation) or paced
 * at an offered rate (the lossless search); the figure is replies per second. Each run also reports the
 * CPU time of the three threads (generator, counter, switch) and the frames the kernel dropped because a
 * receive ring was full, which say which side limits. Needs CAP_NET_ADMIN (it creates the veth pair).
 */
public final class VethBench {
    /** Reply counting stops this long after the last reply once the generator has stopped. */
    private static final long DRAIN_QUIET_NANOS = 100_000_000L;
    private static final int GENERATOR_BATCH = 64;

    /**
     * One timed run. {@code offered}: the paced rate, or 0 for full speed. CPU figures are seconds of CPU
     * per second of the run (1.0 = one core busy); ring drops are frames the kernel could not put in the
     * switch's receive ring ({@code switchDrops}) or the counter's ({@code counterDrops}).
     */
    public record Run(double offered, long sent, long replies, double seconds, double generatorCpu, double counterCpu,
                      double switchCpu, long switchDrops, long counterDrops) {
        public double replyRate() {
            return replies / seconds;
        }

        public double sendRate() {
            return sent / seconds;
        }

        public boolean lossless() {
            return sent > 0 && replies >= sent;
        }

        @Override
        public String toString() {
            return String.format("%s%,.0f replies/s (%,.0f sent/s, %s); CPU per wall-second: generator %.2f, counter %.2f, "
                    + "switch %.2f (%,.0f replies per switch CPU-second); kernel ring drops: switch %s, counter %d",
                    offered > 0 ? String.format("offered %,.0f/s: ", offered) : "", replyRate(), sendRate(),
                    sent == 0 ? "nothing sent" : String.format("loss %.3f%%", 100.0 * Math.max(0, sent - replies) / sent),
                    generatorCpu, counterCpu, switchCpu, replyRate() / Math.max(1e-9, switchCpu),
                    switchDrops < 0 ? "n/a" : Long.toString(switchDrops), counterDrops);
        }
    }

    /** The bench's figures for one way of moving frames: saturation and, if searched, the highest lossless rate. */
    public record Result(String program, String switchDescription, double medianRoundTripMicros, Run saturation, Run lossless,
                         List<Run> search) {
        @Override
        public String toString() {
            StringBuilder b = new StringBuilder(String.format("%s, %s: one request at a time, median round trip %,.0f us"
                    + "%n    saturation %s", program, switchDescription, medianRoundTripMicros, saturation));
            if (lossless != null) {
                b.append(String.format("%n    lossless: %,.0f requests/s sent, every one answered (%s)", lossless.sendRate(), lossless));
            } else if (search != null) {
                b.append(String.format("%n    no lossless offered rate found (lowest tried: %s)", search.getFirst()));
            }
            return b.toString();
        }
    }

    private VethBench() { }

    /** The machine's 1-minute load average (from /proc/loadavg), or NaN where there is none. */
    public static double loadAverage() {
        try {
            return Double.parseDouble(Files.readString(Path.of("/proc/loadavg")).split("\\s+")[0]);
        } catch (IOException | RuntimeException e) {
            return Double.NaN;
        }
    }

    /**
     * Measures the switch with {@code io}: saturation for {@code seconds}, then (if {@code searchSeconds > 0})
     * the highest rate with no loss, by doubling the offered rate from 25k/s and bisecting, each step {@code searchSeconds}.
     */
    public static Result run(Path program, Path stf, int packetIndex, double seconds, LiveSwitch.Io io, double searchSeconds)
            throws Exception {
        return run(PreparedScenario.of(program, stf, packetIndex), P4simUnderTest.with(io), seconds, searchSeconds);
    }

    /** The same measurement of the switch {@code starter} starts, brought to {@code scenario}'s state. */
    static Result run(PreparedScenario scenario, SwitchUnderTest.Starter starter, double seconds, double searchSeconds)
            throws Exception {
        String program = scenario.program().getFileName().toString();
        try (Harness h = new Harness(scenario, starter)) {
            h.warmUp();
            double rtt = h.roundTripMicros(200);
            Run saturation = h.offer(0, seconds);
            if (searchSeconds <= 0) {
                return new Result(program, h.sut.description(), rtt, saturation, null, null);
            }
            List<Run> tried = new ArrayList<>();
            Run best = null;
            double lo = 0;
            double hi = 0;
            for (double rate = 25_000; ; rate *= 2) {
                Run r = h.offer(rate, searchSeconds);
                tried.add(r);
                best = better(best, r);
                if (!r.lossless() || r.sendRate() < 0.95 * rate) {
                    hi = rate; // lost frames, or the generator could not offer this much
                    break;
                }
                lo = rate;
                if (rate > 4 * saturation.sendRate() + 1_000_000) {
                    break;
                }
            }
            for (int i = 0; i < 4 && hi > 0 && lo > 0 && hi - lo > 0.05 * lo; i++) {
                double mid = Math.round((lo + hi) / 2 / 1000) * 1000;
                Run r = h.offer(mid, searchSeconds);
                tried.add(r);
                best = better(best, r);
                if (r.lossless() && r.sendRate() >= 0.95 * mid) {
                    lo = mid;
                } else {
                    hi = mid;
                }
            }
            return new Result(program, h.sut.description(), rtt, saturation, best, tried);
        }
    }

    /** The lossless run that carried more (by the rate actually sent: a starved generator sends less than offered). */
    private static Run better(Run best, Run r) {
        if (!r.lossless()) {
            return best;
        }
        return best == null || r.sendRate() > best.sendRate() ? r : best;
    }

    /** The veth pair, the prepared switch on one end and the generator's rings on the other. */
    private static final class Harness implements AutoCloseable {
        final String host;
        final SwitchUnderTest sut;
        final RingPort gen;
        final byte[] frame;
        final Thread counter;
        final ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        volatile long replies;
        volatile boolean counting = true;

        Harness(PreparedScenario scenario, SwitchUnderTest.Starter starter) throws Exception {
            frame = scenario.workloadFrame();
            String tag = Long.toHexString(ProcessHandle.current().pid() & 0xFFFF);
            host = "p4b" + tag + "h";
            String sws = "p4b" + tag + "s";
            if (!IpCommand.run("link", "add", host, "type", "veth", "peer", "name", sws)) {
                throw new IOException("cannot create a veth pair (needs CAP_NET_ADMIN)");
            }
            SwitchUnderTest started = null;
            RingPort g = null;
            try {
                IpCommand.run("link", "set", "dev", host, "up");
                IpCommand.run("link", "set", "dev", sws, "up");
                g = new RingPort(host, RingPort.Geometry.forMaxFrame(2048).scaled(8));
                started = starter.start(scenario, sws);
            } catch (Exception e) {
                if (started != null) {
                    started.close();
                }
                if (g != null) {
                    g.close();
                }
                IpCommand.run("link", "del", host);
                throw e;
            }
            sut = started;
            gen = g;
            int requestLength = frame.length;
            counter = Thread.ofPlatform().name("bench-counter").start(() -> {
                long[] n = new long[1];
                RingPort.Receiver count = (ring, off, len) -> {
                    // the switch's answers: IPv4, and not the request (the kernel may also send IPv6 noise)
                    if (len != requestLength && ring.get(java.lang.foreign.ValueLayout.JAVA_BYTE, off + 12) == 0x08
                            && ring.get(java.lang.foreign.ValueLayout.JAVA_BYTE, off + 13) == 0x00) {
                        n[0]++;
                    }
                };
                try (RingPoller poller = new RingPoller(List.of(gen))) {
                    while (counting) {
                        if (gen.drain(count, 8) == 0) {
                            poller.await(20);
                        }
                        replies = n[0];
                    }
                } catch (IOException e) {
                    // the port closed at the end
                }
            });
        }

        long threadCpu(Thread t) {
            return t == null ? 0 : Math.max(0, mx.getThreadCpuTime(t.threadId()));
        }

        /** Full speed until the switch has had a CPU-second (p4sim: the JIT's work), at most 15 s. */
        void warmUp() throws IOException, InterruptedException {
            long cpu0 = sut.cpuNanos();
            long giveUp = System.nanoTime() + 15_000_000_000L;
            do {
                offer(0, 0.5);
            } while (sut.cpuNanos() - cpu0 < 1_000_000_000L && System.nanoTime() < giveUp);
        }

        /** Median time from sending one request to counting its reply, one request at a time, {@code n} times. */
        double roundTripMicros(int n) throws IOException, InterruptedException {
            long[] rtt = new long[n];
            int got = 0;
            for (int i = 0; i < n; i++) {
                long before = replies;
                long t0 = System.nanoTime();
                gen.send(frame, 0, frame.length);
                long giveUp = t0 + 1_000_000_000L;
                while (replies == before && System.nanoTime() < giveUp) {
                    Thread.onSpinWait();
                }
                if (replies == before) {
                    break; // no answer in a second: the switch answers none (unprepared, or gone)
                }
                rtt[got++] = System.nanoTime() - t0;
            }
            if (got == 0) {
                return Double.NaN;
            }
            long[] ok = java.util.Arrays.copyOf(rtt, got);
            java.util.Arrays.sort(ok);
            return ok[got / 2] / 1e3;
        }

        /** Sends for {@code seconds} at {@code rate} per second (0: as fast as possible) and counts the replies. */
        Run offer(double rate, double seconds) throws IOException, InterruptedException {
            gen.receiveDrops();
            long switchDrops0 = sut.receiveDrops();
            long replies0 = replies;
            long genCpu0 = mx.getCurrentThreadCpuTime();
            long cntCpu0 = threadCpu(counter);
            long swCpu0 = sut.cpuNanos();
            long start = System.nanoTime();
            long end = start + (long) (seconds * 1e9);
            long sent = 0;
            long now = start;
            while (now < end) {
                long due = rate > 0 ? (long) ((now - start) * rate / 1e9) : sent + GENERATOR_BATCH;
                if (due <= sent) {
                    LockSupport.parkNanos(20_000);
                } else {
                    for (int i = 0; i < GENERATOR_BATCH && sent < due; i++, sent++) {
                        gen.enqueue(frame, 0, frame.length);
                    }
                    gen.flush();
                }
                now = System.nanoTime();
            }
            double elapsed = (now - start) / 1e9;
            double genCpu = (mx.getCurrentThreadCpuTime() - genCpu0) / 1e9 / elapsed;
            double cntCpu = (threadCpu(counter) - cntCpu0) / 1e9 / elapsed;
            double swCpu = (sut.cpuNanos() - swCpu0) / 1e9 / elapsed;
            // the last replies: until none came for a while (a receive block is handed over by its timer)
            long last = replies;
            long quietSince = System.nanoTime();
            long giveUp = quietSince + 3_000_000_000L;
            while (System.nanoTime() - quietSince < DRAIN_QUIET_NANOS && System.nanoTime() < giveUp) {
                Thread.sleep(10);
                if (replies != last) {
                    last = replies;
                    quietSince = System.nanoTime();
                }
            }
            return new Run(rate, sent, replies - replies0, elapsed, genCpu, cntCpu, swCpu,
                    switchDrops0 < 0 ? -1 : sut.receiveDrops() - switchDrops0, gen.receiveDrops());
        }

        @Override
        public void close() throws InterruptedException, IOException {
            counting = false;
            counter.join(2000);
            sut.close();
            gen.close();
            IpCommand.run("link", "del", host);
        }
    }

    public static void main(String[] args) {
        System.exit(Cli.run("VethBench", new FromCommandLine(), args, System.out, System.err));
    }

    /** The veth benchmark of one workload, as {@code innet bench p4sim} runs it. */
    @Command(name = "VethBench", description = "One workload of innet bench p4sim over a veth pair (docs/p4sim.md).")
    static final class FromCommandLine implements Callable<Integer> {
        @Spec
        private CommandSpec spec;

        @Mixin
        private WorkloadArguments w;

        @Option(names = "--io", paramLabel = "ring|socket", description = "how the switch moves frames (default: ${DEFAULT-VALUE})")
        private String io = "ring";

        @Option(names = "--search", paramLabel = "SECONDS",
                description = "seconds per step of the lossless-rate search, 0 for none (default: ${DEFAULT-VALUE})")
        private double search = 1;

        @Option(names = {"-h", "--help"}, usageHelp = true, description = "show this help and exit")
        private boolean help;

        @Override
        public Integer call() throws Exception {
            w.check(spec);
            LiveSwitch.Io mode = switch (io) {
                case "ring" -> LiveSwitch.Io.RING;
                case "socket" -> LiveSwitch.Io.SOCKET;
                default -> throw Cli.usageError(spec, "--io must be ring or socket, got '" + io + "'");
            };
            if (!(search >= 0) || Double.isInfinite(search)) {
                throw Cli.usageError(spec, "--search must be a non-negative number of seconds, got " + search);
            }
            System.out.printf("load average %.2f%n", loadAverage());
            System.out.println(run(w.program, w.scenario, w.packetIndex, w.seconds, mode, search));
            System.out.printf("load average %.2f%n", loadAverage());
            return 0;
        }
    }
}
