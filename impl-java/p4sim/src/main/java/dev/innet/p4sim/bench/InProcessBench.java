package dev.innet.p4sim.bench;

import dev.innet.cli.Cli;
import dev.innet.p4sim.P4Sim;
import dev.innet.p4sim.stf.StfRunner;
import dev.innet.p4sim.v1model.P4Switch;
import dev.innet.p4sim.v1model.PacketSink;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * In-process throughput of a compiled program on one thread: the switch is prepared by the first
 * K-1 packets (and all commands) of an STF scenario, then packet K is processed repeatedly through
 * the zero-copy {@link PacketSink} path. Reports packets per second over a timed run after warm-up.
 */
public final class InProcessBench {
    /** {@code cpuSeconds} is the benchmark thread's CPU time: on a shared machine it measures one core's rate. */
    public record Result(String program, int packetBytes, int outputBytes, long packets, double seconds, double cpuSeconds,
                         double medianSliceRate, double bestSliceRate) {
        public double pps() {
            return packets / seconds;
        }

        public double ppsPerCpuSecond() {
            return packets / cpuSeconds;
        }

        @Override
        public String toString() {
            return String.format("%s: %,.0f packets per CPU-second of one thread (0.5 s slices: median %,.0f, best %,.0f); "
                    + "%,.0f packets/s wall clock; %d-byte request -> %d-byte reply; %,d packets in %.2f s wall, %.2f s CPU",
                    program, ppsPerCpuSecond(), medianSliceRate, bestSliceRate, pps(), packetBytes, outputBytes, packets,
                    seconds, cpuSeconds);
        }
    }

    private InProcessBench() { }

    public static Result run(Path program, Path stf, int packetIndex, double warmupSeconds, double seconds) throws IOException {
        return run(program, stf, packetIndex, warmupSeconds, seconds, false);
    }

    /** {@code coverage}: the switch counts coverage (what that costs per packet). */
    public static Result run(Path program, Path stf, int packetIndex, double warmupSeconds, double seconds, boolean coverage)
            throws IOException {
        P4Switch sw = P4Sim.compile(program).instantiate(dev.innet.p4sim.v1model.SwitchConfig.defaults().withCoverage(coverage));
        List<String> lines = Files.readAllLines(stf);
        List<String> prefix = new ArrayList<>();
        String workload = null;
        int seen = 0;
        for (String l : lines) {
            if (l.startsWith("packet ")) {
                seen++;
                if (seen == packetIndex) {
                    workload = l;
                    break;
                }
            }
            prefix.add(l);
        }
        if (workload == null) {
            throw new IllegalArgumentException(stf + " has fewer than " + packetIndex + " packets");
        }
        List<String> failures = new StfRunner(sw).run(stf.toString(), String.join("\n", prefix));
        if (!failures.isEmpty()) {
            throw new IllegalStateException("scenario prefix failed: " + failures);
        }
        String[] w = workload.split("\\s+", 3);
        int port = Integer.parseInt(w[1]);
        byte[] frame = HexFormat.of().parseHex(w[2].replaceAll("\\s+", ""));
        int[] outBytes = new int[1];
        long[] outCount = new long[1];
        PacketSink sink = (p, buf, off, len) -> {
            outBytes[0] = len;
            outCount[0]++;
        };
        java.lang.management.ThreadMXBean mx = java.lang.management.ManagementFactory.getThreadMXBean();
        // warm-up by this thread's CPU time, not the clock: on a loaded machine a wall-clock warm-up ends before the JIT is done
        long warmCpu = mx.getCurrentThreadCpuTime() + (long) (warmupSeconds * 1e9);
        long warmGiveUp = System.nanoTime() + (long) (warmupSeconds * 1e9) * 15;
        while (mx.getCurrentThreadCpuTime() < warmCpu && System.nanoTime() < warmGiveUp) {
            loop(sw, port, frame, sink, 100_000_000L);
        }
        outCount[0] = 0;
        // timed in slices: on a shared machine the best slice is the closest to an idle core
        int slices = Math.max(1, (int) Math.round(seconds / 0.5));
        double[] rates = new double[slices];
        long n = 0;
        double elapsed = 0;
        double cpu = 0;
        for (int i = 0; i < slices; i++) {
            long cpu0 = mx.getCurrentThreadCpuTime();
            long start = System.nanoTime();
            long k = loop(sw, port, frame, sink, (long) (seconds / slices * 1e9));
            double e = (System.nanoTime() - start) / 1e9;
            double c = (mx.getCurrentThreadCpuTime() - cpu0) / 1e9;
            rates[i] = k / c;
            n += k;
            elapsed += e;
            cpu += c;
        }
        if (outCount[0] != n) {
            throw new IllegalStateException("workload packet produced " + outCount[0] + " outputs for " + n + " packets");
        }
        java.util.Arrays.sort(rates);
        return new Result(program.getFileName().toString(), frame.length, outBytes[0], n, elapsed, cpu,
                rates[slices / 2], rates[slices - 1]);
    }

    private static long loop(P4Switch sw, int port, byte[] frame, PacketSink sink, long nanos) {
        long n = 0;
        long deadline = System.nanoTime() + nanos;
        while (true) {
            for (int i = 0; i < 4096; i++) {
                sw.process(port, frame, 0, frame.length, sink);
            }
            n += 4096;
            if (System.nanoTime() >= deadline) {
                return n;
            }
        }
    }

    public static void main(String[] args) {
        System.exit(Cli.run("InProcessBench", new FromCommandLine(), args, System.out, System.err));
    }

    /** The benchmark of one workload, as {@code innet bench p4sim} runs it for each. */
    @Command(name = "InProcessBench", description = "One workload of innet bench p4sim (docs/p4sim.md).")
    static final class FromCommandLine implements Callable<Integer> {
        @Spec
        private CommandSpec spec;

        @Mixin
        private WorkloadArguments w;

        @Option(names = "--coverage", description = "instantiate the switch with coverage counting on")
        private boolean coverage;

        @Option(names = {"-h", "--help"}, usageHelp = true, description = "show this help and exit")
        private boolean help;

        @Override
        public Integer call() throws Exception {
            w.check(spec);
            System.out.println(run(w.program, w.scenario, w.packetIndex, 2, w.seconds, coverage)
                    + (coverage ? " [coverage on]" : ""));
            return 0;
        }
    }
}
