package dev.innet.costmodel;

import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.PriorityQueue;
import java.util.SplittableRandom;

/**
 * Runs a {@link QueueingNetwork} at an offered load: operations arrive open-loop (Poisson, as a client
 * sending at a target rate), pick their class by its probability, and visit their route in order; each
 * FIFO station serves at most its number of operations at once. Seeded: the same arguments give the same
 * report. The first {@code warmupOps} operations fill the queues and are not measured. Work an operation
 * leaves behind after its reply ({@link OperationClass#repliedAfter}) waits at a station until no request
 * whose client is still waiting is queued there (a non-preemptive priority: the paper's deferred metadata
 * processing); classes without such work see plain FIFO.
 */
public final class DiscreteEventSimulator {
    private final QueueingNetwork net;
    private final double[] cumulative;

    public DiscreteEventSimulator(QueueingNetwork net) {
        this.net = net;
        this.cumulative = new double[net.classes().size()];
        double sum = 0;
        for (int i = 0; i < cumulative.length; i++) {
            sum += net.classes().get(i).probability();
            cumulative[i] = sum;
        }
    }

    /** One event: operation {@code op} ends its service at step {@code step} of its route at {@code time}. */
    private record Departure(double time, long order, int op, int step) implements Comparable<Departure> {
        @Override
        public int compareTo(Departure o) {
            int c = Double.compare(time, o.time);
            return c != 0 ? c : Long.compare(order, o.order);
        }
    }

    /** Mutable state of one run: which class each operation is, when it arrived, the stations' queues. */
    private final class Run {
        final SplittableRandom random;
        final int[] opClass;
        final double[] arrived;
        final double[] latency;
        /** When all of an operation's work, left-behind work included, was done. */
        final double[] finished;
        final int[] busy = new int[net.stations().size()];
        final double[] busySeconds = new double[net.stations().size()];
        @SuppressWarnings("unchecked")
        final ArrayDeque<int[]>[] waiting = new ArrayDeque[net.stations().size()];
        /** Waiting work left behind by operations already answered: served only when no client waits. */
        @SuppressWarnings("unchecked")
        final ArrayDeque<int[]>[] waitingLeftBehind = new ArrayDeque[net.stations().size()];
        final PriorityQueue<Departure> events = new PriorityQueue<>();
        long order;
        int done;
        /** Closed loop: operations to issue in all (0 in an open-loop run), issued so far. */
        int closedTotal;
        int issued;
        int measuredFrom = -1;
        double measureStart;

        Run(int ops, long seed) {
            random = new SplittableRandom(seed);
            opClass = new int[ops];
            arrived = new double[ops];
            latency = new double[ops];
            finished = new double[ops];
            for (int k = 0; k < waiting.length; k++) {
                waiting[k] = new ArrayDeque<>();
                waitingLeftBehind[k] = new ArrayDeque<>();
            }
        }

        int pickClass() {
            double u = random.nextDouble() * cumulative[cumulative.length - 1];
            int lo = 0;
            int hi = cumulative.length - 1;
            while (lo < hi) {
                int mid = (lo + hi) >>> 1;
                if (cumulative[mid] > u) {
                    hi = mid;
                } else {
                    lo = mid + 1;
                }
            }
            return lo;
        }

        double sample(Station s, double mean) {
            if (mean == 0 || s.service() == Station.Service.DETERMINISTIC) {
                return mean;
            }
            return -mean * Math.log(1 - random.nextDouble());
        }

        /** Operation {@code op} reaches step {@code step} of its route at {@code now}. */
        void arrive(int op, int step, double now) {
            OperationClass c = net.classes().get(opClass[op]);
            var route = c.route();
            if (step == c.repliedAfter()) {
                latency[op] = now - arrived[op];
                replied(op, now);
            }
            if (step == route.size()) {
                finished[op] = now;
                done++;
                return;
            }
            Visit v = route.get(step);
            Station s = net.stations().get(v.station());
            if (s.isDelay() || busy[v.station()] < s.servers()) {
                if (!s.isDelay()) {
                    busy[v.station()]++;
                }
                start(op, step, s, v, now);
            } else {
                boolean leftBehind = step >= c.repliedAfter();
                (leftBehind ? waitingLeftBehind : waiting)[v.station()].addLast(new int[] {op, step});
            }
        }

        void start(int op, int step, Station s, Visit v, double now) {
            double t = sample(s, v.seconds());
            if (!s.isDelay()) {
                busySeconds[v.station()] += t;
            }
            events.add(new Departure(now + t, order++, op, step));
        }

        /** The client of {@code op} has its answer at {@code now}: a closed-loop client sends its next operation. */
        void replied(int op, double now) {
            if (closedTotal > 0 && issued < closedTotal) {
                issue(issued++, now);
            }
        }

        void issue(int op, double now) {
            opClass[op] = pickClass();
            arrived[op] = now;
            if (op == measuredFrom) {
                measureStart = now;
            }
            arrive(op, 0, now);
        }

        void depart(Departure d) {
            Visit v = net.classes().get(opClass[d.op()]).route().get(d.step());
            Station s = net.stations().get(v.station());
            if (!s.isDelay()) {
                int[] next = waiting[v.station()].pollFirst();
                if (next == null) {
                    next = waitingLeftBehind[v.station()].pollFirst();
                }
                if (next == null) {
                    busy[v.station()]--;
                } else {
                    Visit nv = net.classes().get(opClass[next[0]]).route().get(next[1]);
                    start(next[0], next[1], s, nv, d.time());
                }
            }
            arrive(d.op(), d.step() + 1, d.time());
        }
    }

    /**
     * Offers {@code opsPerSecond} until {@code warmupOps + measuredOps} operations have arrived and lets them
     * all finish; reports the measured ones. Arrivals of background classes count towards the rate and the
     * operation counts, and are left out of the latencies (and the achieved rate) reported.
     */
    public LatencyReport run(double opsPerSecond, int warmupOps, int measuredOps, long seed) {
        if (!(opsPerSecond > 0) || warmupOps < 0 || measuredOps < 1) {
            throw new IllegalArgumentException("need a positive rate and measured operations");
        }
        int total = warmupOps + measuredOps;
        Run r = new Run(total, seed);
        double nextArrival = -Math.log(1 - r.random.nextDouble()) / opsPerSecond;
        int arrivals = 0;
        double measureStart = 0;
        double lastDone = 0;
        while (r.done < total) {
            boolean arrivalFirst = arrivals < total && (r.events.isEmpty() || nextArrival <= r.events.peek().time());
            if (arrivalFirst) {
                int op = arrivals++;
                r.opClass[op] = r.pickClass();
                r.arrived[op] = nextArrival;
                if (op == warmupOps) {
                    measureStart = nextArrival;
                }
                r.arrive(op, 0, nextArrival);
                nextArrival += -Math.log(1 - r.random.nextDouble()) / opsPerSecond;
            } else {
                Departure d = r.events.poll();
                lastDone = d.time();
                r.depart(d);
            }
        }
        double span = Math.max(lastDone - measureStart, 1e-12);
        // Background work (no client waits for it) loads the stations but has no latency to report.
        double[] measured = java.util.stream.IntStream.range(warmupOps, total)
                .filter(op -> !net.classes().get(r.opClass[op]).background()).mapToDouble(op -> r.latency[op]).toArray();
        if (measured.length == 0) {
            throw new IllegalArgumentException("no measured operation belongs to a foreground class");
        }
        double[] util = new double[r.busySeconds.length];
        for (int k = 0; k < util.length; k++) {
            Station s = net.stations().get(k);
            util[k] = s.isDelay() ? 0 : r.busySeconds[k] / s.servers() / Math.max(lastDone, 1e-12);
        }
        return LatencyReport.of(opsPerSecond, measured, span, util);
    }

    /**
     * Runs the network closed-loop: {@code outstanding} clients each keep one operation in flight and send
     * the next the moment the previous one is answered (the paper-style "queue depth" load), until
     * {@code warmupOps + measuredOps} operations were issued and all finished. Throughput is then a result,
     * not an input: it is what the latency allows (Little's law) or what the bottleneck allows.
     */
    public ClosedLoopReport runClosed(int outstanding, int warmupOps, int measuredOps, long seed) {
        if (outstanding < 1 || warmupOps < 0 || measuredOps < 1) {
            throw new IllegalArgumentException("need 1+ outstanding operations and measured operations");
        }
        int total = warmupOps + measuredOps;
        Run r = new Run(total, seed);
        r.closedTotal = total;
        r.measuredFrom = warmupOps;
        int first = Math.min(outstanding, total);
        r.issued = first;
        for (int op = 0; op < first; op++) {
            r.issue(op, 0);
        }
        double lastDone = 0;
        while (r.done < total) {
            Departure d = r.events.poll();
            lastDone = d.time();
            r.depart(d);
        }
        // Throughput counts an operation when all its work is done, left-behind work included: a load whose
        // deferred work piles up faster than a station drains it is not sustained, however fast the replies.
        // So it is the rate at which operations (warm-up ones too) finished after the measurement began.
        double span = Math.max(lastDone - r.measureStart, 1e-12);
        long finishedInWindow = Arrays.stream(r.finished).filter(f -> f >= r.measureStart).count();
        double[] util = new double[r.busySeconds.length];
        for (int k = 0; k < util.length; k++) {
            Station s = net.stations().get(k);
            util[k] = s.isDelay() ? 0 : r.busySeconds[k] / s.servers() / Math.max(lastDone, 1e-12);
        }
        int[] classes = Arrays.copyOfRange(r.opClass, warmupOps, total);
        double[] latencies = Arrays.copyOfRange(r.latency, warmupOps, total);
        return new ClosedLoopReport(net, outstanding, finishedInWindow / span, classes, latencies, util);
    }
}
