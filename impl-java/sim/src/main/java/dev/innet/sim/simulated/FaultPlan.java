package dev.innet.sim.simulated;

import dev.innet.sim.RandomSource;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The faults of one run's chaos phase, drawn from the seed: a policy per channel, crash/restart pairs
 * per host, partitions, pauses, and a heal at the end of the phase. Each kind of fault is drawn from its own
 * forked stream, so asking for one more partition does not change which hosts crash.
 *
 * <p>Build with {@link #random(Simulation, Options)} after the topology is complete, print with
 * {@link #describe()} (the simulation prints it in its run header too), apply with
 * {@link Simulation#apply(FaultPlan)}.
 */
public final class FaultPlan {
    /**
     * Bounds for a random plan. Each channel's probabilities are drawn uniformly in {@code [0, max]}, its
     * delay range inside {@code [minDelayNanos, maxDelayNanos]}. Each crashable host crashes up to
     * {@code maxCrashesPerHost} times and stays down {@code [minDownNanos, maxDownNanos]}; {@code pauses}
     * times a random host (crashable or not) freezes for a time in the same range. Faults end by
     * {@code chaosEndNanos}, when the plan heals everything.
     */
    public record Options(long chaosEndNanos, double maxDrop, double maxDuplicate, long minDelayNanos,
                          long maxDelayNanos, double maxReorder, long reorderExtraNanos, int maxCrashesPerHost,
                          long minDownNanos, long maxDownNanos, Set<Integer> crashableHosts, int partitions,
                          long minPartitionNanos, long maxPartitionNanos, int pauses) {
        public Options {
            if (chaosEndNanos <= 0) {
                throw new IllegalArgumentException("chaosEndNanos must be positive");
            }
            if (!(maxDrop >= 0 && maxDrop <= 1) || !(maxDuplicate >= 0 && maxDuplicate <= 1)
                    || !(maxReorder >= 0 && maxReorder <= 1)) {
                throw new IllegalArgumentException("probabilities must be in [0,1]");
            }
            if (minDelayNanos < 0 || maxDelayNanos < minDelayNanos) {
                throw new IllegalArgumentException("delay range [" + minDelayNanos + ", " + maxDelayNanos + "]");
            }
            if (maxReorder > 0 && reorderExtraNanos <= 0) {
                throw new IllegalArgumentException("maxReorder > 0 needs reorderExtraNanos > 0");
            }
            if (maxCrashesPerHost < 0 || partitions < 0 || pauses < 0) {
                throw new IllegalArgumentException("counts must be >= 0");
            }
            if (minDownNanos <= 0 || maxDownNanos < minDownNanos) {
                throw new IllegalArgumentException("down-time range [" + minDownNanos + ", " + maxDownNanos + "]");
            }
            if (minPartitionNanos <= 0 || maxPartitionNanos < minPartitionNanos) {
                throw new IllegalArgumentException("partition range [" + minPartitionNanos + ", " + maxPartitionNanos + "]");
            }
            crashableHosts = crashableHosts == null ? null : Set.copyOf(crashableHosts);
        }

        /**
         * Moderate chaos for {@code chaosEndNanos}: up to 10% loss and duplication, 1..200 us delays, up to 2
         * crashes per host, 2 partitions, 1 pause.
         */
        public static Options moderate(long chaosEndNanos) {
            return new Options(chaosEndNanos, 0.10, 0.10, 1_000, 200_000, 0.10, 500_000, 2,
                    chaosEndNanos / 20 + 1, chaosEndNanos / 5 + 1, null, 2, chaosEndNanos / 20 + 1, chaosEndNanos / 4 + 1, 1);
        }

        /** Only these hosts may crash (e.g. servers but not the clients that record the history). */
        public Options withCrashableHosts(Set<Integer> hosts) {
            return new Options(chaosEndNanos, maxDrop, maxDuplicate, minDelayNanos, maxDelayNanos, maxReorder,
                    reorderExtraNanos, maxCrashesPerHost, minDownNanos, maxDownNanos, hosts, partitions,
                    minPartitionNanos, maxPartitionNanos, pauses);
        }
    }

    private sealed interface Step permits Crash, Restart, Isolate, Split, Pause {
        long time();
    }

    private record Crash(long time, int host) implements Step {
    }

    private record Restart(long time, int host) implements Step {
    }

    private record Isolate(long time, long end, int host) implements Step {
    }

    private record Pause(long time, long end, int host) implements Step {
    }

    private record Split(long time, long end, Set<Integer> sideA, Set<Integer> sideB) implements Step {
    }

    private final long seed;
    private final long chaosEnd;
    private final TreeMap<String, LinkFaults> linkFaults;
    private final List<Step> steps;

    private FaultPlan(long seed, long chaosEnd, TreeMap<String, LinkFaults> linkFaults, List<Step> steps) {
        this.seed = seed;
        this.chaosEnd = chaosEnd;
        this.linkFaults = linkFaults;
        this.steps = steps;
    }

    /** Draws a plan for {@code sim}'s current topology from its seed (stream {@code fault-plan}). */
    public static FaultPlan random(Simulation sim, Options o) {
        RandomSource plan = sim.random("fault-plan");
        RandomSource linkDraws = plan.fork("links");
        RandomSource crashDraws = plan.fork("crashes");
        RandomSource partitionDraws = plan.fork("partitions");
        RandomSource pauseDraws = plan.fork("pauses");
        long start = sim.now();
        long end = start + o.chaosEndNanos();

        TreeMap<String, LinkFaults> faults = new TreeMap<>();
        for (Channel ch : sim.channels()) {
            long min = o.minDelayNanos() + linkDraws.nextLong(o.maxDelayNanos() - o.minDelayNanos() + 1);
            long max = min + linkDraws.nextLong(o.maxDelayNanos() - min + 1);
            double reorder = linkDraws.nextDouble() * o.maxReorder();
            faults.put(ch.name(), new LinkFaults(linkDraws.nextDouble() * o.maxDrop(),
                    linkDraws.nextDouble() * o.maxDuplicate(), min, max, reorder,
                    reorder > 0 ? o.reorderExtraNanos() : 0));
        }

        List<Step> steps = new ArrayList<>();
        List<Integer> hosts = sim.hostNumbers();
        for (int h : hosts) {
            if (o.crashableHosts() != null && !o.crashableHosts().contains(h)) {
                continue;
            }
            int crashes = crashDraws.nextInt(o.maxCrashesPerHost() + 1);
            long t = start;
            long slot = Math.max(1, o.chaosEndNanos() / Math.max(1, o.maxCrashesPerHost()));
            for (int i = 0; i < crashes; i++) {
                t += 1 + crashDraws.nextLong(slot);
                if (t >= end) {
                    break;
                }
                long restart = t + o.minDownNanos() + crashDraws.nextLong(o.maxDownNanos() - o.minDownNanos() + 1);
                steps.add(new Crash(t, h));
                if (restart >= end) {
                    break; // the heal at the end of the phase restarts it
                }
                steps.add(new Restart(restart, h));
                t = restart;
            }
        }
        for (int i = 0; i < o.partitions() && hosts.size() >= 2; i++) {
            long begin = start + partitionDraws.nextLong(o.chaosEndNanos());
            long length = o.minPartitionNanos()
                    + partitionDraws.nextLong(o.maxPartitionNanos() - o.minPartitionNanos() + 1);
            long stop = Math.min(begin + length, end);
            if (stop <= begin) {
                continue;
            }
            if (partitionDraws.chance(0.5)) {
                steps.add(new Isolate(begin, stop, hosts.get(partitionDraws.nextInt(hosts.size()))));
            } else {
                List<Integer> shuffled = new ArrayList<>(hosts);
                for (int j = shuffled.size() - 1; j > 0; j--) {
                    int k = partitionDraws.nextInt(j + 1);
                    shuffled.set(j, shuffled.set(k, shuffled.get(j)));
                }
                int cut = 1 + partitionDraws.nextInt(shuffled.size() - 1);
                steps.add(new Split(begin, stop, new TreeSet<>(shuffled.subList(0, cut)),
                        new TreeSet<>(shuffled.subList(cut, shuffled.size()))));
            }
        }
        for (int i = 0; i < o.pauses() && !hosts.isEmpty(); i++) {
            long begin = start + pauseDraws.nextLong(o.chaosEndNanos());
            long stop = Math.min(end, begin + o.minDownNanos() + pauseDraws.nextLong(o.maxDownNanos() - o.minDownNanos() + 1));
            int host = hosts.get(pauseDraws.nextInt(hosts.size()));
            if (stop > begin) {
                steps.add(new Pause(begin, stop, host));
            }
        }
        return new FaultPlan(sim.seed(), end, faults, List.copyOf(steps));
    }

    /** When the chaos phase ends and everything heals. */
    public long chaosEnd() {
        return chaosEnd;
    }

    public String describe() {
        StringBuilder sb = new StringBuilder("fault plan (seed=" + seed + ", heal at " + EventLog.formatTime(chaosEnd) + "):\n");
        linkFaults.forEach((name, f) -> sb.append("  link ").append(name).append(": ").append(f.describe()).append('\n'));
        for (Step s : steps) {
            sb.append("  t=").append(EventLog.formatTime(s.time())).append(' ').append(s).append('\n');
        }
        return sb.toString();
    }

    void applyTo(Simulation sim) {
        linkFaults.forEach((name, f) -> sim.channel(name).setFaults(f));
        for (Step s : steps) {
            switch (s) {
                case Crash c -> sim.crashAt(c.time(), c.host());
                case Restart r -> sim.restartAt(r.time(), r.host());
                case Isolate i -> sim.isolateHost(i.time(), i.end(), i.host());
                case Split p -> sim.partitionHosts("split", p.time(), p.end(), p.sideA(), p.sideB());
                case Pause p -> sim.pauseHost(p.time(), p.end(), p.host());
            }
        }
        sim.healAt(chaosEnd);
    }
}
