package dev.innet.app;

import dev.innet.cli.Cli;
import dev.innet.farreach.FarReachProtocol;
import dev.innet.farreach.monitor.SnapshotMonitor;
import dev.innet.rack.Rack;
import dev.innet.rack.check.LostWriteMonitor;
import dev.innet.rack.check.RunVerdict;
import dev.innet.rack.workload.Workload;
import dev.innet.rack.ycsb.SeededYcsbWorkload;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code ./innet demo}: a FarReach rack on p4sim runs YCSB-A; the switch crashes mid-run, loses every
 * table and register, and is recovered with zero loss. Prints a short report and writes it, with a
 * throughput-over-time plot, to results/demo/. The run's history (well over 100 MB) is checked and then
 * kept only if a check failed or {@code --keep-history} asks for it, so a demo leaves a bounded result.
 */
@Command(name = "innet demo", mixinStandardHelpOptions = true, description = {
    "A FarReach rack on p4sim runs YCSB-A; the switch crashes at 60 ms of simulated time and is recovered with",
    "zero loss. Prints a report and writes it, with a throughput plot, to OUT (default results/demo)."})
public final class DemoMain implements Callable<Integer> {
    @Option(names = "--seed", description = "the run's seed (default ${DEFAULT-VALUE})")
    long seed = 2026;

    @Option(names = "--out", description = "where the report goes (default: results/demo under the repository)")
    Path out;

    @Option(names = "--keep-history", description = "keep the run's history (JSON lines, >100 MB) even when every check passes")
    boolean keepHistory;

    private static final long MS = 1_000_000;
    private static final long RUN = 120 * MS;
    private static final long CRASH = 60 * MS;
    private static final long RESTART = CRASH + MS / 2;
    private static final long SNAPSHOT_PERIOD = 20 * MS;

    public static void main(String[] args) {
        Cli.main("innet demo", new DemoMain(), args);
    }

    /**
     * YCSB's workload A (the settings of its workloads/workloada: 50% reads, 50% updates, zipfian) over
     * the demo's 1,000 keys, every choice drawn from the clients' seeded streams (docs/ycsb.md).
     */
    static SeededYcsbWorkload ycsbWorkloadA() {
        Properties a = new Properties();
        a.setProperty("recordcount", "1000");
        a.setProperty("operationcount", "1000");
        a.setProperty("readproportion", "0.5");
        a.setProperty("updateproportion", "0.5");
        a.setProperty("scanproportion", "0");
        a.setProperty("insertproportion", "0");
        a.setProperty("requestdistribution", "zipfian");
        return SeededYcsbWorkload.of(a);
    }

    @Override
    public Integer call() throws Exception {
        return run(System.out);
    }

    int run(PrintStream out) throws Exception {
        Path root = Path.of(System.getProperty("innet.root", ".")).toAbsolutePath().normalize();
        Path dir = this.out != null ? this.out.toAbsolutePath() : root.resolve("results/demo");
        Files.createDirectories(dir);
        Path durable = Files.createTempDirectory("innet-demo-");
        SnapshotMonitor[] monitor = new SnapshotMonitor[1];
        FarReachProtocol farreach = new FarReachProtocol().withSnapshotPeriodNanos(SNAPSHOT_PERIOD)
                .withHooks(h -> monitor[0] = new SnapshotMonitor(h));
        Rack rack = Rack.builder(root, seed).protocol(farreach).servers(4).clients(8).cacheCapacity(100)
                .workload(Workload.ycsbA(1_000, 128).withChooser(ycsbWorkloadA())).chaosNanos(RUN).quietNanos(20 * MS).counterResetNanos(5 * MS)
                .hotThreshold(8).rocksdb(durable).out(new PrintStream(OutputStream.nullOutputStream())).build();
        rack.crashSwitch(CRASH, RESTART);
        out.println("innet demo: FarReach rack on p4sim running p4/farreach.p4: 4 RocksDB servers, 8 YCSB-A clients"
                + " (YCSB's workload A mix and scrambled zipfian over 1,000 keys, drawn from the run's seed;"
                + " 128-byte values), cache of 100 records,");
        out.println("snapshots every 20 ms of simulated time (the default is 10 s; shortened so a short run has"
                + " several); the switch crashes at 60 ms and restarts 0.5 ms later.");
        long wallStart = System.nanoTime();
        rack.run();
        long wallMillis = (System.nanoTime() - wallStart) / 1_000_000;

        TreeMap<Long, Long> perMs = rack.stats().completionsPerBucket();
        TreeMap<Long, Long> hitsPerMs = rack.stats().hitsPerBucket();
        List<long[]> recoveries = monitor[0].recoveries();
        long recoveredAt = recoveries.isEmpty() ? RESTART : recoveries.get(0)[1];
        double before = rate(perMs, 5 * MS, CRASH);
        double after = rate(perMs, recoveredAt + 5 * MS, RUN);
        double hitsBefore = ratio(hitsPerMs, perMs, 5 * MS, CRASH);
        double hitsAfter = ratio(hitsPerMs, perMs, recoveredAt + 5 * MS, RUN);
        RunVerdict verdict = RunVerdict.of(root, rack, dir, "demo-history");
        List<LostWriteMonitor.Violation> lost = verdict.lostWrites();

        StringBuilder report = new StringBuilder();
        report.append(String.format(Locale.ROOT, "throughput before the crash   %,.0f ops/s (simulated)%n", before));
        report.append(String.format(Locale.ROOT, "throughput after recovery     %,.0f ops/s (from 5 ms after recovery)%n", after));
        report.append(String.format(Locale.ROOT, "cache hit ratio               %.2f before, %.2f after%n", hitsBefore, hitsAfter));
        for (long[] s : monitor[0].snapshotTimes()) {
            report.append(String.format(Locale.ROOT, "snapshot                      at %.1f ms, took %.3f ms%n", s[0] / 1e6,
                    (s[1] - s[0]) / 1e6));
        }
        report.append(String.format(Locale.ROOT, "snapshots checked             %d equal to the cache at their snapshot point, %d differ%n",
                monitor[0].checked(), monitor[0].violations().size()));
        for (long[] r : recoveries) {
            report.append(String.format(Locale.ROOT,
                    "recovery                      %.3f ms (switch restarted at %.1f ms): %d records replayed, %d re-admitted, %d/%d clients answered%n",
                    (r[1] - r[0]) / 1e6, RESTART / 1e6, r[2], r[3], r[4], rack.clients().size()));
        }
        report.append(String.format(Locale.ROOT, "operations checked            %,d (%,d completed), porcupine: %s%n",
                verdict.operations(), rack.stats().completed, verdict.linearizability()));
        report.append(String.format(Locale.ROOT, "lost acknowledged writes      %d%n", lost.size()));
        report.append(String.format(Locale.ROOT, "simulated %d ms in %.1f s of wall-clock time%n", (RUN + 20 * MS) / MS, wallMillis / 1e3));
        out.print(report);
        Path html = dir.resolve("report.html");
        Files.writeString(html, html(report.toString(), perMs, recoveries));
        Files.writeString(dir.resolve("report.txt"), report.toString());
        out.println("report and throughput plot: " + html);
        boolean ok = lost.isEmpty() && verdict.safe() && monitor[0].violations().isEmpty() && recoveries.size() == 1;
        if (ok && !keepHistory) {
            Files.deleteIfExists(verdict.history());
            out.println("history: checked and not kept (--keep-history keeps it)");
        } else {
            out.println("history: " + verdict.history());
        }
        if (!ok) {
            out.println("DEMO FAILED: " + verdict.describe() + " " + monitor[0].violations());
        }
        return ok ? 0 : 1;
    }

    private static double rate(TreeMap<Long, Long> perMs, long from, long to) {
        long n = perMs.subMap(from / MS, to / MS).values().stream().mapToLong(Long::longValue).sum();
        return n / ((to - from) / 1e9);
    }

    private static double ratio(TreeMap<Long, Long> hits, TreeMap<Long, Long> all, long from, long to) {
        long h = hits.subMap(from / MS, to / MS).values().stream().mapToLong(Long::longValue).sum();
        long a = all.subMap(from / MS, to / MS).values().stream().mapToLong(Long::longValue).sum();
        return a == 0 ? 0 : (double) h / a;
    }

    /** A self-contained HTML page: the report and an inline SVG plot of completed operations per ms. */
    private static String html(String report, TreeMap<Long, Long> perMs, List<long[]> recoveries) {
        int w = 800;
        int h = 260;
        long maxY = Math.max(1, perMs.values().stream().mapToLong(Long::longValue).max().orElse(1));
        long maxX = RUN / MS + 20;
        StringBuilder path = new StringBuilder();
        for (long x = 0; x <= maxX; x++) {
            long y = perMs.getOrDefault(x, 0L);
            path.append(x == 0 ? "M" : "L").append(String.format(Locale.ROOT, "%.1f,%.1f", 40 + x * (w - 60.0) / maxX,
                    h - 30 - y * (h - 50.0) / maxY));
        }
        StringBuilder marks = new StringBuilder();
        marks.append(vertical(CRASH, maxX, w, h, "#c00", "switch crash"));
        for (long[] r : recoveries) {
            marks.append(vertical(r[1], maxX, w, h, "#080", "recovered"));
        }
        return "<!doctype html><html><head><meta charset=\"utf-8\"><title>innet demo</title></head><body>"
                + "<h1>innet demo: FarReach switch crash and zero-loss recovery</h1>"
                + "<svg width=\"" + w + "\" height=\"" + h + "\" style=\"border:1px solid #ccc\">"
                + "<text x=\"45\" y=\"15\" font-size=\"12\">completed operations per ms of simulated time (max " + maxY + ")</text>"
                + "<path d=\"" + path + "\" fill=\"none\" stroke=\"#036\" stroke-width=\"1.5\"/>" + marks
                + "<text x=\"" + (w / 2) + "\" y=\"" + (h - 8) + "\" font-size=\"12\">simulated time (ms)</text></svg>"
                + "<pre>" + report.replace("&", "&amp;").replace("<", "&lt;") + "</pre></body></html>\n";
    }

    private static String vertical(long atNanos, long maxX, int w, int h, String colour, String label) {
        double x = 40 + (atNanos / (double) MS) * (w - 60.0) / maxX;
        return String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"20\" x2=\"%.1f\" y2=\"%d\" stroke=\"%s\" stroke-dasharray=\"4\"/>"
                + "<text x=\"%.1f\" y=\"32\" font-size=\"11\" fill=\"%s\">%s</text>", x, x, h - 30, colour, x + 3, colour, label);
    }
}
