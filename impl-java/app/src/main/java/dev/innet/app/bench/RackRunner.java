package dev.innet.app.bench;

import dev.innet.app.bench.RunObservation.HostTraffic;
import dev.innet.p4sim.v1model.SwitchStats;
import dev.innet.protocol.Protocol;
import dev.innet.protocol.RackPorts;
import dev.innet.rack.Rack;
import dev.innet.rack.SwitchTraffic;
import dev.innet.rack.SwitchTraffic.Tally;
import dev.innet.rack.workload.WorkloadClient;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.UnaryOperator;

/**
 * Runs one protocol's simulated rack on a workload and reports what it did in a measured window after a
 * warm-up (the preload settling, first reads refreshing preloaded records): the real P4 program on p4sim,
 * the real servers, controller and clients, closed-loop clients, clean links. Seeded: the same arguments
 * give the same observation.
 */
public final class RackRunner {
    /** Closed-loop clients of the rack (their count only sets how many operations overlap). */
    public static final int CLIENTS = 16;

    private final Path root;
    private final long seed;
    /** Another P4 source than the protocol's own (same control names), or null. */
    private final Path programSource;

    public RackRunner(Path root, long seed) {
        this(root, seed, null);
    }

    private RackRunner(Path root, long seed, Path programSource) {
        this.root = root;
        this.seed = seed;
        this.programSource = programSource;
    }

    /** The same runner with the switch running {@code source} instead of the protocol's program (a baseline). */
    public RackRunner withProgramSource(Path source) {
        return new RackRunner(root, seed, source);
    }

    public RunObservation run(Protocol protocol, BenchWorkload w, int servers, int cache, long ops) {
        return run(protocol, w, servers, cache, ops, CLIENTS);
    }

    /**
     * @param clients closed-loop clients, i.e. how many operations are outstanding at once: what decides how
     *        often a read finds a write to the same key in flight
     */
    public RunObservation run(Protocol protocol, BenchWorkload w, int servers, int cache, long ops, int clients) {
        return run(protocol, w, servers, cache, ops, clients, Math.max(1, ops / 5), b -> b);
    }

    /**
     * @param warmOps operations completed before the measured window opens (a protocol that learns its hot
     *        keys at run time, like Pegasus's directory, needs more than the default fifth of the window)
     * @param settings rack settings beyond the ones above (e.g. the controller's statistics period)
     */
    public RunObservation run(Protocol protocol, BenchWorkload w, int servers, int cache, long ops, int clients,
            long warmOps, UnaryOperator<Rack.Builder> settings) {
        return run(protocol, w, servers, cache, ops, clients, warmOps, settings, rack -> {});
    }

    /** @param beforeRun what is done to the built rack before it runs (e.g. a switch failure scheduled) */
    public RunObservation run(Protocol protocol, BenchWorkload w, int servers, int cache, long ops, int clients,
            long warmOps, UnaryOperator<Rack.Builder> settings, java.util.function.Consumer<Rack> beforeRun) {
        SwitchTraffic traffic = new SwitchTraffic();
        // The paper loads every record before it measures; here the records the cache preloads are written
        // first (by every scheme, so all three measure the same data), the cold keys stay absent.
        List<byte[]> hottest = new ArrayList<>();
        for (long k : w.hottestKeys(cache)) {
            hottest.add(WorkloadClient.keyOf((int) k));
        }
        List<byte[]> preload = protocol.servesFromSwitch() ? hottest : List.of();
        Rack.Builder builder = Rack.builder(root, seed);
        if (programSource != null) {
            builder.programSource(programSource);
        }
        Rack rack = settings.apply(builder.protocol(protocol).servers(servers).clients(clients).cacheCapacity(cache)
                .workload(w.rackWorkload()).keyChoosers(w.keys()).preload(preload).loadKeys(hottest).switchTraffic(traffic)
                .chaosNanos(Long.MAX_VALUE / 4).quietNanos(0).out(new PrintStream(OutputStream.nullOutputStream()))
                .maxEvents(Long.MAX_VALUE / 4)).build();
        beforeRun.accept(rack);
        long warm = Math.max(1, warmOps);
        rack.simulation().runUntil(() -> rack.stats().completed >= warm, Long.MAX_VALUE / 8);
        Snapshot before = Snapshot.of(rack, traffic);
        rack.simulation().runUntil(() -> rack.stats().completed >= before.completed + ops, Long.MAX_VALUE / 8);
        Snapshot after = Snapshot.of(rack, traffic);
        List<HostTraffic> perServer = new ArrayList<>();
        for (int i = 0; i < servers; i++) {
            perServer.add(after.hosts.get(i).minus(before.hosts.get(i)));
        }
        HostTraffic clientHosts = sum(after.hosts.subList(servers, servers + clients))
                .minus(sum(before.hosts.subList(servers, servers + clients)));
        HostTraffic controller = after.hosts.get(servers + clients).minus(before.hosts.get(servers + clients));
        return new RunObservation(protocol.name(), w.name(), servers, after.completed - before.completed,
                after.hits - before.hits, after.reads - before.reads, after.writes - before.writes, perServer, clientHosts,
                controller, after.passes - before.passes, after.recirculated - before.recirculated,
                after.cloned - before.cloned);
    }

    private static HostTraffic sum(List<HostTraffic> hosts) {
        Map<Integer, Tally> sent = new TreeMap<>();
        Map<Integer, Tally> received = new TreeMap<>();
        for (HostTraffic h : hosts) {
            add(sent, h.sent());
            add(received, h.received());
        }
        return new HostTraffic(sent, received);
    }

    private static void add(Map<Integer, Tally> into, Map<Integer, Tally> from) {
        from.forEach((op, t) -> {
            Tally s = into.computeIfAbsent(op, o -> new Tally());
            s.frames += t.frames;
            s.bytes += t.bytes;
        });
    }

    /** Counters at one instant: servers, then clients, then the controller, in rack order. */
    private record Snapshot(long completed, long hits, long reads, long writes, List<HostTraffic> hosts, long passes,
            long recirculated, long cloned) {
        static Snapshot of(Rack rack, SwitchTraffic t) {
            List<HostTraffic> hosts = new ArrayList<>();
            List<Integer> all = new ArrayList<>(rack.servers());
            all.addAll(rack.clients());
            for (int h : all) {
                int port = RackPorts.portOf(h);
                hosts.add(new HostTraffic(t.sentBy(port), t.receivedBy(port)));
            }
            hosts.add(new HostTraffic(t.sentBy(RackPorts.CPU_PORT), t.receivedBy(RackPorts.CPU_PORT)));
            // every switch's pipeline passes: a network of switches (Pegasus's racks) passes a frame through several
            long received = 0;
            long recirculated = 0;
            long cloned = 0;
            for (SwitchStats s : rack.runningSwitchStats()) {
                received += s.received;
                recirculated += s.recirculated;
                cloned += s.cloned;
            }
            var st = rack.stats();
            return new Snapshot(st.completed, st.cacheHits, st.reads, st.writes, hosts, received, recirculated, cloned);
        }
    }
}
