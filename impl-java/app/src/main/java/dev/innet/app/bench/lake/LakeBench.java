package dev.innet.app.bench.lake;

import dev.innet.app.bench.Stated;
import dev.innet.app.bench.plot.PlotOption;
import dev.innet.cli.Cli;
import dev.innet.lake.LakeProtocol;
import dev.innet.lake.host.MemcachedProcess;
import dev.innet.p4sim.bench.InProcessBench;
import java.io.IOException;
import java.io.PrintStream;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code ./innet bench lake} (issue 19, item 5; docs/benchmarks.md, "LaKe"): in one run, side by side,
 * <ol>
 *   <li>p4sim running {@code p4/lake.p4} in process, one thread: packets per second for each path (a
 *       first-layer hit, a second-layer hit, a GET miss, a SET, an uncacheable GET, non-memcached
 *       traffic), from the frames of {@code p4/tests/lake.stf};</li>
 *   <li>the real memcached alone on loopback (no switch): closed-loop GETs of preloaded keys;</li>
 *   <li>a live LaKe rack (real memcached behind p4sim on AF_PACKET ports, root only): the same GETs
 *       from a client namespace, first with keys LaKe caches (hits per layer from the switch's
 *       counters), then with keys it never caches (every GET through the switch to memcached: the
 *       no-cache baseline on the same path);</li>
 *   <li>the cost model of LaKe's NetFPGA-SUME ({@link LakeModel}) for the paper's mix and the mix the
 *       live run measured, against memcached alone.</li>
 * </ol>
 */
@Command(name = "innet bench lake", mixinStandardHelpOptions = true, description = {
    "LaKe: p4sim's in-process and live rates against the real memcached on this machine, and the modelled",
    "NetFPGA figures (docs/benchmarks.md, \"LaKe\")."})
public final class LakeBench implements Callable<Integer> {
    /** Packets of lake.stf whose processing is one path of the data plane (the ones before set it up). */
    record Path4(String name, int packetIndex) {}

    static final List<Path4> PATHS = List.of(new Path4("GET, first-layer hit (answered)", 7),
            new Path4("GET, second-layer hit (answered)", 18), new Path4("GET miss (tagged, to memcached)", 5),
            new Path4("SET (tagged, to memcached)", 8), new Path4("GET, uncacheable key (relayed)", 27),
            new Path4("not binary memcached (relayed, a NIC)", 3));

    @Spec
    CommandSpec spec;

    @Option(names = "--seconds", description = "measured seconds of each load (default ${DEFAULT-VALUE})")
    double seconds = 5;

    @Option(names = "--threads", description = "closed-loop GET clients of each memcached load (default ${DEFAULT-VALUE})")
    int threads = 4;

    @Option(names = "--keys", description = "keys of each memcached load; more than LaKe's 256 first-layer slots "
            + "spreads hits over both layers (default ${DEFAULT-VALUE})")
    int keys = 2048;

    @Option(names = "--rounds", description = "live: rounds of (cached load, uncached load), alternated so that the "
            + "machine's other work falls on both alike; the median round is reported (default ${DEFAULT-VALUE})")
    int rounds = 3;

    @Option(names = "--no-live", description = "skip the live rack (it needs root and network namespaces)")
    boolean noLive;

    @Option(names = "--name", description = "the live rack's name (default ${DEFAULT-VALUE})")
    String name = "llkbench";

    @Option(names = "--root", hidden = true)
    Path root = Path.of(System.getProperty("innet.root", "."));

    @Mixin
    PlotOption plot = new PlotOption();

    private final PrintStream out;

    public LakeBench() {
        this(System.out);
    }

    /** {@code out}: where the report goes (tests pass their own, to see that a refused run printed nothing). */
    LakeBench(PrintStream out) {
        this.out = out;
    }

    public static void main(String[] args) {
        System.exit(Cli.run("innet bench lake", new LakeBench(), args, System.out, System.err));
    }

    @Override
    public Integer call() throws Exception {
        if (seconds <= 0 || threads < 1 || keys < 1 || rounds < 1) {
            throw Cli.usageError(spec, "--seconds, --threads, --keys and --rounds must be positive");
        }
        plot.prepare(root.toAbsolutePath().normalize(), "lake");
        LakeFigures figures = new LakeFigures();
        Path memcached = Path.of("/usr/bin/memcached");
        out.printf(Locale.ROOT, "bench lake: %d GET clients, %d keys, %.0f s each load; host: %d cores, load average %.1f%n",
                threads, keys, seconds, Runtime.getRuntime().availableProcessors(),
                java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());

        out.println("\n1. p4sim in process (p4/lake.p4, one thread, frames of p4/tests/lake.stf)");
        for (Path4 p : PATHS) {
            InProcessBench.Result r = InProcessBench.run(root.resolve("p4/lake.p4"), root.resolve("p4/tests/lake.stf"),
                    p.packetIndex(), 1, Math.min(seconds, 3));
            out.printf(Locale.ROOT, "   %-40s %,12.0f packets/s per CPU-second (%d-byte frame -> %d bytes)%n", p.name(),
                    r.ppsPerCpuSecond(), r.packetBytes(), r.outputBytes());
            figures.p4sim(p.name(), r.ppsPerCpuSecond());
        }

        McLoad.Result alone = null;
        if (!Files.isExecutable(memcached)) {
            out.println("\n2. memcached alone: SKIPPED, /usr/bin/memcached is not installed (./innet setup as root installs it)");
        } else {
            alone = memcachedAlone(memcached);
            out.println("\n2. the real memcached alone on loopback (no switch), " + version(memcached));
            row("memcached, 16-byte keys, 32-byte values", alone);
            figures.measured("memcached alone", alone);
        }

        Live live = null;
        if (noLive) {
            out.println("\n3. live rack: skipped (--no-live)");
        } else {
            live = live();
        }
        if (live != null) {
            figures.measured("through LaKe (cached keys)", live.cached());
            figures.measured("through the switch (no cache)", live.relayed());
        }

        out.println("\n4. modelled: LaKe on NetFPGA-SUME (LakeModel; the paper's constants, docs/benchmarks.md)");
        LakeModel.Mix allHits = new LakeModel.Mix("paper Table I: every GET a first-layer hit", 1, 0);
        List<LakeModel.Mix> mixes = new ArrayList<>(List.of(allHits, new LakeModel.Mix("paper Fig. 11: 10% first layer, 50% DRAM",
                0.1, 0.5)));
        if (live != null && live.cached.gets() > 0) {
            mixes.add(new LakeModel.Mix("this run's live mix", live.l1Share(), live.l2Share()));
        }
        LakeModel.Figures host = LakeModel.figures(new LakeModel.Mix("memcached alone", 0, 0), false, 0.5, 1);
        out.printf(Locale.ROOT, "   %-44s %10s %12s %12s %12s  %s%n", "mix", "Mqps", "x memcached", "mean@0 µs", "p99@50% µs",
                "bottleneck");
        for (LakeModel.Mix m : mixes) {
            LakeModel.Figures f = LakeModel.figures(m, true, 0.5, 1);
            modelRow(f, host);
            // the paper states a throughput for all hits only; it draws the other mixes (Fig. 10-11) as curves
            figures.model(f, m == allHits ? LakeFigures.ALL_HITS_MQPS : Stated.NONE);
        }
        modelRow(host, host);
        figures.model(host, LakeFigures.MEMCACHED_MQPS);
        out.println("   (the paper: 13.1 Mqps on hits, 1.16 µs hit latency, 13.6x memcached's throughput; 5.6 µs from DRAM)");

        out.println("\n5. the simulator's switch timing: one GET per path alone on a simulated rack, lake.p4's @innet_memory");
        out.println("   layers priced at the paper's latencies (LakeProtocol.switchMemoryNanos) against the same run untimed");
        LayerLatencies.Figures timed = LayerLatencies.measure(root, new LakeProtocol());
        LayerLatencies.Figures untimed = LayerLatencies.measure(root, LakeProtocol.withoutSwitchTiming());
        out.printf(Locale.ROOT, "   %-44s %12s %12s %12s%n", "path", "timed µs", "untimed µs", "device µs");
        timingRow(figures, "GET, first-layer hit", timed.firstLayerHit(), untimed.firstLayerHit(), LakeFigures.FIRST_LAYER_US);
        timingRow(figures, "GET, second-layer hit", timed.secondLayerHit(), untimed.secondLayerHit(),
                LakeFigures.SECOND_LAYER_US);
        timingRow(figures, "GET, miss (memcached: not found)", timed.miss(), untimed.miss(), Stated.NONE);
        out.println("   (untimed: the simulated links only; the simulator's memcached answers at once, so a miss shows LaKe's");
        out.println("    part only: the DRAM lookup on the way in and again on memcached's reply)");
        plot.write(figures.page(), out);
        return 0;
    }

    /** Prints a path's latencies and adds it to the figures with what the paper states for it. */
    private void timingRow(LakeFigures figures, String path, long timedNanos, long untimedNanos, Stated paper) {
        out.printf(Locale.ROOT, "   %-44s %12.2f %12.2f %12.2f%n", path, timedNanos / 1e3, untimedNanos / 1e3,
                (timedNanos - untimedNanos) / 1e3);
        figures.timing(path, timedNanos, untimedNanos, paper);
    }

    private void modelRow(LakeModel.Figures f, LakeModel.Figures host) {
        out.printf(Locale.ROOT, "   %-44s %10.2f %12.1f %12.2f %12.2f  %s%n", f.mix().name(), f.saturationQps() / 1e6,
                f.saturationQps() / host.saturationQps(), f.zeroLoadMeanS() * 1e6, f.atLoad().p99() * 1e6, f.bottleneck());
    }

    private void row(String what, McLoad.Result r) {
        out.printf(Locale.ROOT, "   %-44s %,10.0f GETs/s  p50 %7.1f µs  p99 %8.1f µs  (%d GETs, %d timeouts)%n", what,
                r.opsPerSecond(), r.p50Micros(), r.p99Micros(), r.gets(), r.timeouts());
    }

    private McLoad.Result memcachedAlone(Path memcached) throws Exception {
        int port;
        try (DatagramSocket free = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
            port = free.getLocalPort();
        }
        List<String> args = new ArrayList<>(new MemcachedProcess().arguments("127.0.0.1",
                "root".equals(System.getProperty("user.name"))));
        args.set(args.indexOf("-U") + 1, Integer.toString(port));
        List<String> cmd = new ArrayList<>(List.of(memcached.toString()));
        cmd.addAll(args);
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        try {
            McLoad.Target t = new McLoad.Target(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), null, keys, 16, 32);
            Thread.sleep(300); // memcached opens its UDP port
            McLoad.preload(t);
            return McLoad.run(t, threads, 1, seconds, 1);
        } finally {
            p.destroy();
            p.waitFor(5, TimeUnit.SECONDS);
        }
    }

    /** The live part's figures: the cached load, the switch's counters over it, the uncacheable load. */
    record Live(McLoad.Result cached, long[] statsBefore, long[] statsAfter, McLoad.Result relayed) {
        double l1Share() {
            return (double) (statsAfter[0] - statsBefore[0]) / Math.max(1, answeredOrForwarded());
        }

        double l2Share() {
            return (double) (statsAfter[1] - statsBefore[1]) / Math.max(1, answeredOrForwarded());
        }

        long answeredOrForwarded() {
            return (statsAfter[0] - statsBefore[0]) + (statsAfter[1] - statsBefore[1]) + (statsAfter[2] - statsBefore[2]);
        }
    }

    private Live live() throws Exception {
        out.println("\n3. live rack: p4sim (p4/lake.p4) on AF_PACKET ports, the real memcached on h1, GETs from h2's namespace");
        String innet = root.resolve("innet").toString();
        String up = command(List.of(innet, "rack", "up", "--protocol", "lake", "--name", name, "--servers", "1", "--clients", "1"),
                180);
        if (!up.contains("is up in")) {
            out.println("   SKIPPED: the rack did not come up (needs root and network namespaces):\n   "
                    + up.strip().replace("\n", "\n   "));
            return null;
        }
        try {
            String sw = "innet-" + name + "-sw";
            String client = "innet-" + name + "-h2";
            String java = ProcessHandle.current().info().command().orElse("java");
            String cp = System.getProperty("java.class.path");
            List<String> load = List.of("ip", "netns", "exec", client, java, "-cp", cp, McLoad.class.getName(), "10.0.0.1",
                    "11211", "10.0.0.2");
            String n = Integer.toString(keys);
            String t = Integer.toString(threads);
            String s = Double.toString(seconds);
            // warm both layers: the preload's SETs fill them (LK-5); memcached then holds both key sets
            command(concat(load, List.of(n, "16", "32", t, "0", "0.5", "preload")), 120);
            command(concat(load, List.of(n, "20", "32", t, "0", "0.5", "preload")), 120);
            List<Live> all = new ArrayList<>();
            for (int round = 1; round <= rounds; round++) {
                long[] before = lakeStats(sw);
                McLoad.Result cached = McLoad.Result.parse(command(concat(load, List.of(n, "16", "32", t, "1", s)), 120));
                long[] after = lakeStats(sw);
                McLoad.Result relayed = McLoad.Result.parse(command(concat(load, List.of(n, "20", "32", t, "1", s)), 120));
                Live r = new Live(cached, before, after, relayed);
                all.add(r);
                out.printf(Locale.ROOT, "   round %d: cached %,.0f GETs/s (p50 %.1f µs), no cache %,.0f GETs/s (p50 %.1f µs): %.2fx%n",
                        round, cached.opsPerSecond(), cached.p50Micros(), relayed.opsPerSecond(), relayed.p50Micros(),
                        cached.opsPerSecond() / relayed.opsPerSecond());
            }
            all.sort(Comparator.comparingDouble(r -> r.cached().opsPerSecond() / r.relayed().opsPerSecond()));
            Live live = all.get(all.size() / 2);
            out.println("   the median round:");
            McLoad.Result cached = live.cached();
            McLoad.Result relayed = live.relayed();
            row("through LaKe, 16-byte keys (cached)", cached);
            out.printf(Locale.ROOT, "   %-44s first layer %.1f%%, second layer %.1f%%, to memcached %.1f%% of %,d GETs the switch saw%n",
                    "  answered by (the switch's lake_stats)", 100 * live.l1Share(), 100 * live.l2Share(),
                    100 * (1 - live.l1Share() - live.l2Share()), live.answeredOrForwarded());
            row("through the switch, 20-byte keys (no cache)", relayed);
            out.printf(Locale.ROOT, "   %-44s %.2fx the GETs/s, p50 %.2fx%n", "  LaKe against no cache, same path",
                    cached.opsPerSecond() / relayed.opsPerSecond(), cached.p50Micros() / relayed.p50Micros());
            return live;
        } finally {
            command(List.of(innet, "rack", "down", "--name", name), 120);
        }
    }

    private static List<String> concat(List<String> a, List<String> b) {
        List<String> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }

    /** MyIngress.lake_stats read on p4sim's control port, inside the switch's namespace. */
    private static long[] lakeStats(String switchNamespace) throws Exception {
        String reply = command(List.of("ip", "netns", "exec", switchNamespace, "bash", "-c",
                "exec 3<>/dev/tcp/127.0.0.1/9090 && printf 'register_read MyIngress.lake_stats\\n' >&3 && IFS= read -r -t 5 l <&3 && echo \"$l\""),
                20);
        String values = reply.substring(reply.indexOf('=') + 1).strip();
        return java.util.Arrays.stream(values.split(",")).map(String::strip).mapToLong(Long::parseLong).toArray();
    }

    private static String command(List<String> argv, long timeoutSeconds) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(argv).redirectErrorStream(true).start();
        byte[] bytes = p.getInputStream().readAllBytes();
        if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IOException(String.join(" ", argv) + ": did not finish in " + timeoutSeconds + " s");
        }
        String output = new String(bytes, StandardCharsets.UTF_8);
        if (p.exitValue() != 0) {
            throw new IOException(argv.get(0) + " " + argv.get(1) + " ... exited " + p.exitValue() + ": " + output.strip());
        }
        return output;
    }

    private static String version(Path memcached) {
        try {
            return command(List.of(memcached.toString(), "-V"), 10).strip();
        } catch (Exception e) {
            return "memcached (version unknown)";
        }
    }
}
