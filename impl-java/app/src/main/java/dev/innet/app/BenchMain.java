package dev.innet.app;

import dev.innet.cli.Cli;
import dev.innet.protocol.Protocol;
import dev.innet.protocol.ProtocolRegistry;
import dev.innet.rack.Rack;
import dev.innet.rack.workload.Workload;
import dev.innet.rack.workload.WorkloadClient;
import dev.innet.rack.workload.ZipfianGenerator;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code ./innet bench farreach}: no-cache vs NetCache vs FarReach throughput for 16..128 servers.
 *
 * <p>Method (the paper's own, §5 "server rotation"): the simulated rack runs the real programs on p4sim
 * with the real servers and controller, and records how many requests reach each server. Servers are
 * modelled with a fixed service rate; a rack saturates when its busiest server does, so
 * {@code throughput = operations / max(requests of one server) * rate}. Switch capacity is not the
 * bottleneck (a Tofino forwards billions of packets per second). The rate only scales all figures; the
 * ratios do not depend on it.
 */
@Command(name = "innet bench", mixinStandardHelpOptions = true, description = {
    "no-cache vs NetCache vs FarReach throughput for 16..128 servers: YCSB-A (50%% reads) and write-only, both",
    "zipfian 0.99, 16-byte keys, 128-byte values, cache preloaded with the hottest keys (method: docs/farreach.md)."})
public final class BenchMain implements Callable<Integer> {
    /** The protocols compared, in the order the table prints them. */
    private static final List<String> COMPARED = List.of("nocache", "netcache", "farreach");

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "farreach", description = "what to benchmark (only farreach so far)")
    String target;

    @Option(names = "--servers", split = ",", paramLabel = "N,N,...", description = "server counts (default 16,32,64,128)")
    List<Integer> serverCounts = List.of(16, 32, 64, 128);

    @Option(names = "--ops", description = "measured operations per run (default ${DEFAULT-VALUE})")
    long ops = 60_000;

    @Option(names = "--keys", description = "keys (default ${DEFAULT-VALUE})")
    int keys = 1_000_000;

    @Option(names = "--cache", description = "cache records, preloaded with the hottest keys (default ${DEFAULT-VALUE})")
    int cache = 10_000;

    @Option(names = "--rate", description = "server service rate in ops/s (default ${DEFAULT-VALUE})")
    double rate = 100_000;

    record Result(String workload, int servers, String protocol, long ops, long maxServerLoad, long hits, double mops) {}

    public static void main(String[] args) {
        Cli.main("innet bench", new BenchMain(), args);
    }

    @Override
    public Integer call() throws Exception {
        if (!target.equals("farreach")) {
            throw Cli.usageError(spec, "unknown benchmark '" + target + "' (bench farreach; p4sim has its own)");
        }
        if (ops < 1 || keys < 1 || cache < 1 || !(rate > 0) || serverCounts.stream().anyMatch(n -> n < 1)) {
            throw Cli.usageError(spec, "--servers, --ops, --keys, --cache and --rate must be positive");
        }
        return run(System.out);
    }

    int run(PrintStream out) throws Exception {
        Path root = Path.of(System.getProperty("innet.root", ".")).toAbsolutePath().normalize();
        out.printf("innet bench farreach: %,d keys, cache %,d (preloaded), %,d measured ops per run, server rate %,.0f ops/s%n",
                keys, cache, ops, rate);
        out.println("throughput = ops / busiest server's requests * rate (the paper's server-rotation method)");
        List<byte[]> hottest = hottestKeys(keys, cache);
        for (String workload : List.of("ycsb-a", "write-only")) {
            Workload w = workload.equals("ycsb-a") ? Workload.ycsbA(keys, 128) : Workload.writeOnly(keys, 128);
            out.printf("%n%-10s %7s  %12s %12s %12s  %9s %9s  %s%n", workload, "servers", "no-cache", "netcache",
                    "farreach", "fr/nc", "fr/none", "hit ratio nc/fr");
            for (int servers : serverCounts) {
                Map<String, Result> row = new LinkedHashMap<>();
                for (String name : COMPARED) {
                    row.put(name, measure(root, ProtocolRegistry.byName(name), w, workload, servers, cache, ops, rate, hottest));
                }
                Result none = row.get("nocache");
                Result nc = row.get("netcache");
                Result fr = row.get("farreach");
                out.printf("%-10s %7d  %9.2f M/s %9.2f M/s %9.2f M/s  %8.2fx %8.2fx  %.2f / %.2f%n", "", servers,
                        none.mops(), nc.mops(), fr.mops(), fr.mops() / nc.mops(), fr.mops() / none.mops(),
                        (double) nc.hits() / nc.ops(), (double) fr.hits() / fr.ops());
            }
        }
        return 0;
    }

    /** The cache's initial contents: the most popular keys of the workload's zipfian order. */
    private static List<byte[]> hottestKeys(int keys, int cache) {
        ZipfianGenerator order = new ZipfianGenerator(keys, 0.99, true);
        List<byte[]> out = new ArrayList<>();
        java.util.Set<Long> seen = new java.util.HashSet<>();
        for (long rank = 0; out.size() < Math.min(cache, keys) && rank < keys; rank++) {
            long item = order.itemOfRank(rank);
            if (seen.add(item)) {
                out.add(WorkloadClient.keyOf((int) item));
            }
        }
        return out;
    }

    private static Result measure(Path root, Protocol protocol, Workload w, String name, int servers, int cache,
            long ops, double rate, List<byte[]> hottest) {
        int clients = 16;
        // Long enough for `ops` operations at the simulated rack's latency; the run ends when they are done.
        Rack rack = Rack.builder(root, 42).protocol(protocol).servers(servers).clients(clients).cacheCapacity(cache)
                .workload(w).preload(protocol.servesFromSwitch() ? hottest : List.of()).chaosNanos(Long.MAX_VALUE / 4)
                .quietNanos(0).out(new PrintStream(OutputStream.nullOutputStream())).maxEvents(Long.MAX_VALUE / 4)
                .build();
        // warm-up: let preload finish and first reads refresh the outdated preloaded records
        long warmOps = ops / 5;
        rack.simulation().runUntil(() -> rack.stats().completed >= warmOps, Long.MAX_VALUE / 8);
        long[] before = serverRequests(rack);
        long opsBefore = rack.stats().completed;
        long hitsBefore = rack.stats().cacheHits;
        rack.simulation().runUntil(() -> rack.stats().completed >= opsBefore + ops, Long.MAX_VALUE / 8);
        long[] after = serverRequests(rack);
        long max = 1;
        for (int i = 0; i < after.length; i++) {
            max = Math.max(max, after[i] - before[i]);
        }
        long measured = rack.stats().completed - opsBefore;
        long hits = rack.stats().cacheHits - hitsBefore;
        return new Result(name, servers, protocol.name(), measured, max, hits, measured / (double) max * rate / 1e6);
    }

    private static long[] serverRequests(Rack rack) {
        long[] out = new long[rack.servers().size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = rack.serverCounter(rack.servers().get(i), "requests");
        }
        return out;
    }
}
