package dev.innet.app;

import dev.innet.cli.Cli;
import dev.innet.farreach.FarReachProtocol;
import dev.innet.farreach.monitor.SnapshotMonitor;
import dev.innet.protocol.Protocol;
import dev.innet.protocol.ProtocolRegistry;
import dev.innet.protocol.RackPorts;
import dev.innet.rack.CampaignSettings;
import dev.innet.rack.Rack;
import dev.innet.rack.campaign.Campaign;
import dev.innet.rack.workload.Workload;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code ./innet sim}: simulated campaigns larger than the CI ones. Each run is a rack with lossy,
 * duplicating, reordering server links and cache churn; its history is checked by porcupine and the
 * lost-write monitor and kept under the output directory. Exits 1 if any run is unsafe, 2 if porcupine
 * could not decide a run in time (inconclusive, not a pass).
 */
@Command(name = "innet sim", mixinStandardHelpOptions = true, description = {
    "Simulated campaigns on p4sim racks with lossy, duplicating, reordering switch<->server links (5%% loss, 5%%",
    "duplication, 1-30 us delay, 10%% reordered by 50 us) and cache churn; every history is checked by porcupine",
    "and the lost-write monitor and kept under OUT. Exit 1: an unsafe run; 2: porcupine could not decide a run."})
public final class SimMain implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--program", description = "a registered protocol, or all (default ${DEFAULT-VALUE})")
    String program = "all";

    @Option(names = "--seeds", description = "runs per protocol (default ${DEFAULT-VALUE})")
    int seeds = 20;

    @Option(names = "--first-seed", description = "seed of the first run (default ${DEFAULT-VALUE})")
    long firstSeed = 1;

    @Option(names = "--chaos-ms", description = "simulated milliseconds of faults per run (default ${DEFAULT-VALUE})")
    long chaosMs = 100;

    @Option(names = "--servers", description = "storage servers (default ${DEFAULT-VALUE})")
    int servers = 2;

    @Option(names = "--clients", description = "client hosts (default ${DEFAULT-VALUE})")
    int clients = 4;

    @Option(names = "--cache", description = "cache records (default ${DEFAULT-VALUE})")
    int cache = 8;

    @Option(names = "--crashes", arity = "0..1", fallbackValue = "all", paramLabel = "all|switch", description = {
        "also crash and restart the switch, the controller and a server (all, the default) or only the switch (switch)",
        "at times drawn from the seed, with snapshots every 3 ms checked by the snapshot monitor (FarReach; with",
        "--program pegasus, Pegasus with its own switch recovery).",
        "Trace validation decides runs whose only crash is the switch's; host restarts come back unknown"})
    String crashes;

    private boolean crashing() {
        return crashes != null;
    }

    @Option(names = "--out", description = "where histories go (default: results/sim under the repository)")
    Path out;

    @Option(names = "--keys", description = "keys of the workload (default ${DEFAULT-VALUE})")
    int keys = CampaignSettings.ci().workload().keys();

    @Option(names = "--deletes", description = "fraction of operations that are deletes (default ${DEFAULT-VALUE})")
    double deletes = CampaignSettings.ci().workload().deleteFraction();

    @Option(names = "--validate", description = {"check the first N runs of each protocol with trace validation (FarReach,",
        "NetCache) against its spec with TLC (docs/conformance.md; default ${DEFAULT-VALUE}, 0 = none). A rejected run fails",
        "the campaign; runs the converter cannot express yet (crashes and restarts; deletes for NetCache) come back",
        "unknown, reported and never a pass"})
    int validate = 1;

    @Option(names = "--validate-timeout", paramLabel = "SECONDS", description = {"TLC time limit per validated run",
        "(default ${DEFAULT-VALUE}; a run out of time is unknown)"})
    long validateTimeoutSeconds = 300;

    /**
     * The switch crashes at a time drawn from the run's seed and restarts soon after; unless
     * {@code switchOnly}, so do the controller and one server (the draws for the switch come first, so
     * the switch's crash is at the same time either way).
     */
    private static void scheduleCrashes(Rack rack, long chaosNanos, boolean switchOnly) {
        dev.innet.sim.RandomSource r = rack.simulation().random("crash-plan");
        long window = Math.max(1, chaosNanos - 10_000_000);
        long sw = 5_000_000 + r.nextLong(window);
        rack.crashSwitch(sw, sw + 100_000 + r.nextLong(1_000_000));
        if (switchOnly) {
            return;
        }
        long ctl = 5_000_000 + r.nextLong(window);
        rack.crashHost(ctl, ctl + 200_000 + r.nextLong(1_000_000), RackPorts.CONTROLLER_HOST);
        long srv = 5_000_000 + r.nextLong(window);
        int server = rack.servers().get(r.nextInt(rack.servers().size()));
        rack.crashHost(srv, srv + 200_000 + r.nextLong(1_000_000), server);
    }

    public static void main(String[] args) {
        Cli.main("innet sim", new SimMain(), args);
    }

    @Override
    public Integer call() throws Exception {
        List<Protocol> protocols;
        try {
            protocols = program.equals("all") ? ProtocolRegistry.all() : List.of(ProtocolRegistry.byName(program));
        } catch (IllegalArgumentException e) {
            throw Cli.usageError(spec, "--program: " + e.getMessage());
        }
        if (crashing() && !crashes.equals("all") && !crashes.equals("switch")) {
            throw Cli.usageError(spec, "--crashes takes all or switch, not '" + crashes + "'");
        }
        if (seeds < 1 || chaosMs < 1 || servers < 1 || clients < 1 || cache < 1) {
            throw Cli.usageError(spec, "--seeds, --chaos-ms, --servers, --clients and --cache must be at least 1");
        }
        if (!(deletes >= 0 && deletes <= 0.5) || validate < 0 || keys < 1 || validateTimeoutSeconds < 1) {
            throw Cli.usageError(spec, "--deletes must be in 0..0.5, --validate at least 0, --validate-timeout and --keys at "
                    + "least 1");
        }
        return run(protocols, System.out);
    }

    /** The header's note on protocols that run without duplication ({@link Protocol#toleratesDuplicatedPackets}). */
    private static String withoutDuplication(List<Protocol> protocols) {
        List<String> names = protocols.stream().filter(p -> !p.toleratesDuplicatedPackets()).map(Protocol::name).toList();
        return names.isEmpty() ? "" : " (without duplication for " + String.join(", ", names) + ")";
    }

    int run(List<Protocol> protocols, PrintStream out) throws Exception {
        Path root = Path.of(System.getProperty("innet.root", ".")).toAbsolutePath().normalize();
        Path outDir = this.out != null ? this.out.toAbsolutePath() : root.resolve("results/sim");
        CampaignSettings ci = CampaignSettings.ci();
        Workload w = ci.workload();
        CampaignSettings settings = ci.withChaosNanos(chaosMs * 1_000_000).withRack(servers, clients, cache)
                .withWorkload(new Workload(keys, w.zipfTheta(), w.readFraction(), deletes, w.valueBytes(), w.thinkNanos()));
        TraceSample sample = new TraceSample(root, outDir, validate, cache, java.time.Duration.ofSeconds(validateTimeoutSeconds));
        if (crashing() && !program.equals("pegasus")) {
            protocols = List.of(ProtocolRegistry.byName("farreach")); // snapshots and recovery are FarReach's
        }
        out.printf("innet sim: %s x seeds %d..%d, %d ms chaos, %d servers, %d clients, cache %d, faults %s%s%n",
                protocols.stream().map(Protocol::name).toList(), firstSeed, firstSeed + seeds - 1, chaosMs, servers, clients, cache,
                settings.serverLinkFaults().describe() + withoutDuplication(protocols),
                !crashing() ? "" : (crashes.equals("switch") ? ", switch crashes" : ", crashes of switch, controller and a server")
                        + (program.equals("pegasus") ? "" : "; snapshots every 3 ms"));
        out.printf("%-9s %6s %8s %8s %6s %8s %9s  %s%n", "program", "seed", "ops", "hits", "evict", "lost", "porcupine",
                "result");
        PrintStream quiet = new PrintStream(OutputStream.nullOutputStream());
        Path durable = java.nio.file.Files.createTempDirectory("innet-sim-");
        Campaign.RunSetup setup = (protocol, seed) -> {
            if (!crashing()) {
                return Campaign.PreparedRun.of(settings.rack(root, protocol, seed).out(quiet)
                        .recordTraceEvents(sample.wants(protocol, seed)).build());
            }
            if (protocol.name().equals("pegasus")) { // its own switch recovery, no snapshots (docs/pegasus.md)
                Rack rack = settings.rack(root, protocol, seed).out(quiet).rocksdb(durable.resolve("seed" + seed)).build();
                scheduleCrashes(rack, chaosMs * 1_000_000, crashes.equals("switch"));
                return Campaign.PreparedRun.of(rack);
            }
            SnapshotMonitor[] monitor = new SnapshotMonitor[1];
            Protocol withSnapshots = ((FarReachProtocol) protocol).withSnapshotPeriodNanos(3_000_000)
                    .withHooks(h -> monitor[0] = new SnapshotMonitor(h));
            Rack rack = settings.rack(root, withSnapshots, seed).out(quiet).rocksdb(durable.resolve("seed" + seed))
                    .recordTraceEvents(sample.wants(protocol, seed)).build();
            scheduleCrashes(rack, chaosMs * 1_000_000, crashes.equals("switch"));
            return new Campaign.PreparedRun(rack, () -> monitor[0].violations());
        };
        List<Campaign.Outcome> outcomes = Campaign.run(root, outDir, protocols, firstSeed, seeds, setup, o -> {
            if (!o.monitorViolations().isEmpty()) {
                out.println(o.protocol() + "-seed" + o.seed() + ": " + o.monitorViolations());
            }
            out.printf("%-9s %6d %8d %8d %6d %8d %9s  %s%n", o.protocol(), o.seed(), o.verdict().operations(),
                    o.rack().stats().cacheHits, o.rack().controllerCounters().getOrDefault("evictions", 0L),
                    o.verdict().lostWrites().size(), o.verdict().linearizability(), o.result());
            sample.check(o, out);
        });
        out.println("histories: " + outDir);
        List<Campaign.Outcome> unsafe = outcomes.stream().filter(Campaign.Outcome::unsafe).toList();
        for (Campaign.Outcome o : unsafe) {
            out.println(o.verdict().describe());
        }
        if (!unsafe.isEmpty()) {
            out.println(unsafe.size() + " unsafe run(s): reproduce one with --program P --first-seed S --seeds 1");
        }
        sample.summary(out);
        if (sample.rejected() > 0) {
            out.println(sample.rejected() + " run(s) the spec does not admit (trace validation)");
            return 1;
        }
        return Campaign.exitCode(outcomes);
    }
}
