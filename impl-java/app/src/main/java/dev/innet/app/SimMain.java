package dev.innet.app;

import dev.innet.rack.CacheProgram;
import dev.innet.rack.CampaignSettings;
import dev.innet.rack.Rack;
import dev.innet.rack.check.RunVerdict;
import dev.innet.rack.check.SnapshotMonitor;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code ./innet sim}: simulated campaigns larger than the CI ones. Each run is a rack with lossy,
 * duplicating, reordering server links and cache churn; its history is checked by porcupine and the
 * lost-write monitor and kept under the output directory. Exits 1 if any run is unsafe, 2 if porcupine
 * could not decide a run in time (inconclusive, not a pass).
 */
public final class SimMain {
    private static final String USAGE = """
            usage: innet sim [--program farreach|netcache|nocache|all] [--seeds N] [--first-seed S]
                             [--chaos-ms MS] [--servers N] [--clients N] [--cache N] [--crashes] [--out DIR]
              defaults: all programs, 20 seeds from 1, 100 ms of chaos, 2 servers, 4 clients, 8 cache
              records, histories under results/sim/. Link faults: 5% loss, 5% duplication, 1-30 us delay,
              10% reordered by 50 us, on every switch<->server link.
              --crashes: also crash and restart the switch, the controller and a server at times drawn from
              the seed, with FarReach snapshots every 3 ms checked by the snapshot monitor (FarReach only).""";

    private SimMain() {}

    /** Switch, controller and one server crash at times drawn from the run's seed, each restarting soon after. */
    private static void scheduleCrashes(Rack rack, long chaosNanos) {
        dev.innet.sim.RandomSource r = rack.simulation().random("crash-plan");
        long window = Math.max(1, chaosNanos - 10_000_000);
        long sw = 5_000_000 + r.nextLong(window);
        rack.crashSwitch(sw, sw + 100_000 + r.nextLong(1_000_000));
        long ctl = 5_000_000 + r.nextLong(window);
        rack.crashHost(ctl, ctl + 200_000 + r.nextLong(1_000_000), dev.innet.rack.RackPorts.CONTROLLER_HOST);
        long srv = 5_000_000 + r.nextLong(window);
        int server = rack.servers().get(r.nextInt(rack.servers().size()));
        rack.crashHost(srv, srv + 200_000 + r.nextLong(1_000_000), server);
    }

    public static void main(String[] args) throws Exception {
        System.exit(run(args, System.out));
    }

    static int run(String[] args, PrintStream out) throws Exception {
        Path root = Path.of(System.getProperty("innet.root", ".")).toAbsolutePath().normalize();
        List<CacheProgram> programs = List.of(CacheProgram.values());
        int seeds = 20;
        long firstSeed = 1;
        long chaosMs = 100;
        int servers = 2;
        int clients = 4;
        int cache = 8;
        Path outDir = root.resolve("results/sim");
        boolean crashes = false;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (a.equals("-h") || a.equals("--help")) {
                out.println(USAGE);
                return 0;
            }
            if (a.equals("--crashes")) {
                crashes = true;
                continue;
            }
            if (i + 1 >= args.length) {
                System.err.println("innet sim: " + a + " needs a value\n" + USAGE);
                return 3;
            }
            String v = args[++i];
            switch (a) {
                case "--program" -> programs = v.equals("all") ? List.of(CacheProgram.values())
                        : List.of(CacheProgram.valueOf(v.toUpperCase(Locale.ROOT)));
                case "--seeds" -> seeds = Integer.parseInt(v);
                case "--first-seed" -> firstSeed = Long.parseLong(v);
                case "--chaos-ms" -> chaosMs = Long.parseLong(v);
                case "--servers" -> servers = Integer.parseInt(v);
                case "--clients" -> clients = Integer.parseInt(v);
                case "--cache" -> cache = Integer.parseInt(v);
                case "--out" -> outDir = Path.of(v).toAbsolutePath();
                default -> {
                    System.err.println("innet sim: unknown option " + a + "\n" + USAGE);
                    return 3;
                }
            }
        }
        CampaignSettings settings = CampaignSettings.ci().withChaosNanos(chaosMs * 1_000_000)
                .withRack(servers, clients, cache);
        if (crashes) {
            programs = List.of(CacheProgram.FARREACH); // snapshots and recovery are FarReach's
        }
        out.printf("innet sim: %s x seeds %d..%d, %d ms chaos, %d servers, %d clients, cache %d, faults %s%s%n",
                programs, firstSeed, firstSeed + seeds - 1, chaosMs, servers, clients, cache,
                settings.serverLinkFaults().describe(),
                crashes ? ", crashes of switch, controller and a server; snapshots every 3 ms" : "");
        out.printf("%-9s %6s %8s %8s %6s %8s %9s  %s%n", "program", "seed", "ops", "hits", "evict", "lost", "porcupine",
                "result");
        List<RunVerdict> bad = new ArrayList<>();
        boolean anySnapshotViolation = false;
        boolean inconclusive = false;
        PrintStream quiet = new PrintStream(OutputStream.nullOutputStream());
        Path durable = java.nio.file.Files.createTempDirectory("innet-sim-");
        for (CacheProgram program : programs) {
            for (long seed = firstSeed; seed < firstSeed + seeds; seed++) {
                SnapshotMonitor[] monitor = new SnapshotMonitor[1];
                Rack.Builder builder = settings.rack(root, program, seed).out(quiet);
                if (crashes) {
                    builder.snapshotPeriodNanos(3_000_000).rocksdb(durable.resolve("seed" + seed))
                            .hooks(r -> monitor[0] = new SnapshotMonitor(r));
                }
                Rack rack = builder.build();
                if (crashes) {
                    scheduleCrashes(rack, chaosMs * 1_000_000);
                }
                rack.run();
                String name = program.name().toLowerCase(Locale.ROOT) + "-seed" + seed;
                RunVerdict v = RunVerdict.of(root, rack, outDir, name);
                List<String> snapshotViolations = monitor[0] == null ? List.of() : monitor[0].violations();
                String result = !snapshotViolations.isEmpty() ? "SNAPSHOT VIOLATION"
                        : v.safe() ? "safe" : v.violated() ? "VIOLATION" : "inconclusive";
                if (!snapshotViolations.isEmpty()) {
                    out.println(name + ": " + snapshotViolations);
                    anySnapshotViolation = true;
                }
                out.printf("%-9s %6d %8d %8d %6d %8d %9s  %s%n", program.name().toLowerCase(Locale.ROOT), seed,
                        v.operations(), rack.stats().cacheHits,
                        program.caches() ? rack.controller().stats().evictions : 0, v.lostWrites().size(),
                        v.linearizability(), result);
                if (v.violated()) {
                    bad.add(v);
                } else if (!v.safe()) {
                    inconclusive = true;
                }
            }
        }
        out.println("histories: " + outDir);
        for (RunVerdict v : bad) {
            out.println(v.describe());
        }
        if (!bad.isEmpty() || anySnapshotViolation) {
            out.println(bad.size() + " unsafe run(s): reproduce one with --program P --first-seed S --seeds 1");
            return 1;
        }
        return inconclusive ? 2 : 0;
    }
}
