package dev.innet.app;

import dev.innet.kv.server.StorageServer;
import dev.innet.rack.CacheProgram;
import dev.innet.rack.Rack;
import dev.innet.rack.workload.Workload;
import dev.innet.rack.workload.WorkloadClient;
import dev.innet.rack.workload.ZipfianGenerator;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

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
public final class BenchMain {
    private static final String USAGE = """
            usage: innet bench farreach [--servers 16,32,64,128] [--ops N] [--keys N] [--cache N] [--rate OPS]
              defaults: 16,32,64,128 servers; 60000 measured operations per run; 1000000 keys; cache of
              10000 records (preloaded with the hottest keys); 16-byte keys, 128-byte values; server rate
              100000 ops/s. Workloads: YCSB-A (50% reads) and write-only, both zipfian 0.99.""";

    private BenchMain() {}

    public static void main(String[] args) throws Exception {
        System.exit(run(args, System.out));
    }

    record Result(String workload, int servers, CacheProgram program, long ops, long maxServerLoad, long hits,
            double mops) {}

    static int run(String[] args, PrintStream out) throws Exception {
        Path root = Path.of(System.getProperty("innet.root", ".")).toAbsolutePath().normalize();
        if (args.length == 0 || !args[0].equals("farreach")) {
            out.println(USAGE);
            return args.length == 1 && (args[0].equals("-h") || args[0].equals("--help")) ? 0 : 3;
        }
        List<Integer> serverCounts = List.of(16, 32, 64, 128);
        long ops = 60_000;
        int keys = 1_000_000;
        int cache = 10_000;
        double rate = 100_000;
        for (int i = 1; i < args.length; i += 2) {
            String v = i + 1 < args.length ? args[i + 1] : null;
            if (v == null) {
                out.println(USAGE);
                return 3;
            }
            switch (args[i]) {
                case "--servers" -> serverCounts = java.util.Arrays.stream(v.split(",")).map(Integer::parseInt).toList();
                case "--ops" -> ops = Long.parseLong(v);
                case "--keys" -> keys = Integer.parseInt(v);
                case "--cache" -> cache = Integer.parseInt(v);
                case "--rate" -> rate = Double.parseDouble(v);
                default -> {
                    out.println(USAGE);
                    return 3;
                }
            }
        }
        out.printf("innet bench farreach: %,d keys, cache %,d (preloaded), %,d measured ops per run, server rate %,.0f ops/s%n",
                keys, cache, ops, rate);
        out.println("throughput = ops / busiest server's requests * rate (the paper's server-rotation method)");
        List<byte[]> hottest = hottestKeys(keys, cache);
        List<Result> results = new ArrayList<>();
        for (String workload : List.of("ycsb-a", "write-only")) {
            Workload w = workload.equals("ycsb-a") ? Workload.ycsbA(keys, 128) : Workload.writeOnly(keys, 128);
            out.printf("%n%-10s %7s  %12s %12s %12s  %9s %9s  %s%n", workload, "servers", "no-cache", "netcache",
                    "farreach", "fr/nc", "fr/none", "hit ratio nc/fr");
            for (int servers : serverCounts) {
                Map<CacheProgram, Result> row = new EnumMap<>(CacheProgram.class);
                for (CacheProgram p : CacheProgram.values()) {
                    row.put(p, measure(root, p, w, workload, servers, cache, ops, rate, hottest));
                }
                results.addAll(row.values());
                Result none = row.get(CacheProgram.NOCACHE);
                Result nc = row.get(CacheProgram.NETCACHE);
                Result fr = row.get(CacheProgram.FARREACH);
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

    private static Result measure(Path root, CacheProgram program, Workload w, String name, int servers, int cache,
            long ops, double rate, List<byte[]> hottest) {
        int clients = 16;
        // Long enough for `ops` operations at the simulated rack's latency; the run ends when they are done.
        Rack rack = Rack.builder(root, 42).program(program).servers(servers).clients(clients).cacheCapacity(cache)
                .workload(w).preload(program.caches() ? hottest : List.of()).chaosNanos(Long.MAX_VALUE / 4)
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
        return new Result(name, servers, program, measured, max, hits, measured / (double) max * rate / 1e6);
    }

    private static long[] serverRequests(Rack rack) {
        long[] out = new long[rack.servers().size()];
        for (int i = 0; i < out.length; i++) {
            StorageServer s = rack.server(rack.servers().get(i));
            out[i] = s.stats().requests;
        }
        return out;
    }

    static String lower(CacheProgram p) {
        return p.name().toLowerCase(Locale.ROOT);
    }
}
