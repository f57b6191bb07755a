package dev.innet.app.bench;

import dev.innet.app.bench.RunObservation.HostTraffic;
import dev.innet.costmodel.OperationClass;
import dev.innet.costmodel.QueueingNetwork;
import dev.innet.costmodel.Station;
import dev.innet.costmodel.Visit;
import dev.innet.kv.KvOp;
import dev.innet.rack.SwitchTraffic.Tally;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Turns what a rack run did ({@link RunObservation}) into the cost model's queueing network on a
 * {@link Testbed}: every operation runs on one of the client machines, crosses its NIC and its switch
 * pipeline, and either comes back from the switch or visits the server that received it. A server's work
 * is what it received and sent in the run, priced per message kind, spread over the client requests it
 * served (so hot reports, eviction stores, refresh reads all land on the server that did them).
 */
public final class RackCostModel {
    /** Requests that read or write a server's store. */
    public static final Set<Integer> STORAGE_OPS = Set.of(KvOp.GET, KvOp.PUT, KvOp.DEL, KvOp.GET_FOR_CACHE, KvOp.PUT_SEQ,
            KvOp.DEL_SEQ, KvOp.GET_EMBED, KvOp.EVICT_STORE, KvOp.RECOVER_STORE);
    /** The storage requests a client's operation causes (the others come from the controller). */
    static final Set<Integer> CLIENT_REQUEST_OPS = Set.of(KvOp.GET, KvOp.PUT, KvOp.DEL, KvOp.GET_FOR_CACHE,
            KvOp.PUT_SEQ, KvOp.DEL_SEQ, KvOp.GET_EMBED);
    private static final Set<Integer> WRITE_OPS = Set.of(KvOp.PUT, KvOp.DEL, KvOp.PUT_SEQ, KvOp.DEL_SEQ);

    private RackCostModel() {}

    /** Seconds of server work a server did in the run, priced by {@code t}. */
    static double serverWork(HostTraffic h, Testbed t) {
        return serverWork(h, t, STORAGE_OPS);
    }

    static double serverWork(HostTraffic h, Testbed t, Set<Integer> storageOps) {
        double work = 0;
        for (Map.Entry<Integer, Tally> e : h.received().entrySet()) {
            work += e.getValue().frames * (storageOps.contains(e.getKey()) ? t.storageOpSeconds() : t.controlMessageSeconds());
        }
        for (Map.Entry<Integer, Tally> e : h.sent().entrySet()) {
            if ((e.getKey() & 0x80) == 0) {
                work += e.getValue().frames * t.sentMessageSeconds();
            }
        }
        return work;
    }

    static long clientRequests(HostTraffic h) {
        long n = 0;
        for (int op : CLIENT_REQUEST_OPS) {
            n += h.received(op);
        }
        return n;
    }

    private static double wireSeconds(long frames, long bytes, Testbed t) {
        return (bytes + frames * (double) t.frameOverheadBytes()) * 8 / t.linkBitsPerSecond();
    }

    private static long frames(Map<Integer, Tally> m) {
        return m.values().stream().mapToLong(x -> x.frames).sum();
    }

    private static long bytes(Map<Integer, Tally> m) {
        return m.values().stream().mapToLong(x -> x.bytes).sum();
    }

    public static QueueingNetwork of(RunObservation run, Testbed t) {
        return of(run, t, STORAGE_OPS);
    }

    /**
     * @param storageOps the received op codes priced as storage requests; the rest are control messages
     *        (a protocol with its own op codes, like Pegasus's REPLICATE, names its storage work here)
     */
    public static QueueingNetwork of(RunObservation run, Testbed t, Set<Integer> storageOps) {
        return of(run, t, storageOps, false);
    }

    /**
     * @param offPathServerWork price a server's work beyond the client requests it served (forwarded writes,
     *        control messages, reports) as background classes at that server, which queue with the requests
     *        but which no client waits for, instead of spreading it over the requests' service times. Then
     *        the network's arrivals include that work: client operations are its
     *        {@link QueueingNetwork#foregroundShare()}.
     */
    public static QueueingNetwork of(RunObservation run, Testbed t, Set<Integer> storageOps, boolean offPathServerWork) {
        if (run.operations() < 1) {
            throw new IllegalArgumentException("run " + run.protocol() + "/" + run.workload() + " completed no operations");
        }
        double ops = run.operations();
        List<Station> st = new ArrayList<>();
        int machines = t.clientMachines();
        int clientCpu = st.size();
        for (int m = 0; m < machines; m++) {
            st.add(Station.fifo("client machine " + m, Station.Service.DETERMINISTIC));
        }
        int nicUp = st.size();
        for (int m = 0; m < machines; m++) {
            st.add(Station.fifo("client " + m + " NIC out", Station.Service.DETERMINISTIC));
        }
        int nicDown = st.size();
        for (int m = 0; m < machines; m++) {
            st.add(Station.fifo("client " + m + " NIC in", Station.Service.DETERMINISTIC));
        }
        int pipe = st.size();
        for (int p = 0; p < t.pipelines(); p++) {
            st.add(Station.fifo("switch pipeline " + p, Station.Service.DETERMINISTIC));
        }
        int serverCpu = st.size();
        for (int s = 0; s < run.servers(); s++) {
            st.add(Station.fifo("server " + s, Station.Service.EXPONENTIAL));
        }
        int serverIn = st.size();
        for (int s = 0; s < run.servers(); s++) {
            st.add(Station.fifo("server " + s + " NIC in", Station.Service.DETERMINISTIC));
        }
        int serverOut = st.size();
        for (int s = 0; s < run.servers(); s++) {
            st.add(Station.fifo("server " + s + " NIC out", Station.Service.DETERMINISTIC));
        }
        int stack = st.size();
        st.add(Station.delay("host network stacks"));
        int fabric = st.size();
        st.add(Station.delay("switch traversal"));

        // Per operation, averaged over the run: switch passes (plus modelled snapshot recirculations of the
        // writes entering non-selected pipelines), client bytes each way.
        long clientWrites = 0;
        for (int op : WRITE_OPS) {
            clientWrites += run.clientTraffic().sent(op);
        }
        double recirculations = run.recirculated() + clientWrites * t.snapshotRecirculatedWriteFraction()
                * (t.pipelines() - 1) / (double) t.pipelines();
        double passSeconds = (run.switchPasses() + recirculations) / ops / t.pipelinePacketsPerSecond();
        HostTraffic c = run.clientTraffic();
        double upSeconds = wireSeconds(frames(c.sent()), bytes(c.sent()), t) / ops;
        double downSeconds = wireSeconds(frames(c.received()), bytes(c.received()), t) / ops;
        double clientSeconds = 1 / t.clientMachineOpsPerSecond();

        long[] requests = new long[run.servers()];
        long totalRequests = 0;
        for (int s = 0; s < run.servers(); s++) {
            requests[s] = clientRequests(run.serverTraffic().get(s));
            totalRequests += requests[s];
        }
        // A retried or refreshed operation visits servers more than once: keep the demand, scale the visit.
        double visitsPerOp = Math.max(1, totalRequests / ops);
        double missShare = Math.min(1, totalRequests / ops);
        List<OperationClass> classes = new ArrayList<>();
        for (int m = 0; m < machines; m++) {
            List<Visit> front = List.of(new Visit(clientCpu + m, clientSeconds), new Visit(stack, t.hostStackSeconds()),
                    new Visit(nicUp + m, upSeconds), new Visit(fabric, t.switchTraversalSeconds()),
                    new Visit(pipe + m % t.pipelines(), passSeconds));
            List<Visit> back = List.of(new Visit(nicDown + m, downSeconds), new Visit(stack, t.hostStackSeconds()));
            List<Visit> hit = new ArrayList<>(front);
            hit.addAll(back);
            classes.add(new OperationClass("switch answers, machine " + m, (1 - missShare) / machines, hit));
            for (int s = 0; s < run.servers(); s++) {
                if (requests[s] == 0) {
                    continue;
                }
                HostTraffic h = run.serverTraffic().get(s);
                double perVisit = visitsPerOp;
                double work = offPathServerWork ? requestWork(h, t, storageOps) : serverWork(h, t, storageOps);
                List<Visit> route = new ArrayList<>(front);
                route.add(new Visit(serverIn + s, wireSeconds(frames(h.received()), bytes(h.received()), t) / requests[s] * perVisit));
                route.add(new Visit(stack, t.hostStackSeconds()));
                route.add(new Visit(serverCpu + s, work / requests[s] * perVisit));
                route.add(new Visit(stack, t.hostStackSeconds()));
                route.add(new Visit(serverOut + s, wireSeconds(frames(h.sent()), bytes(h.sent()), t) / requests[s] * perVisit));
                route.add(new Visit(fabric, t.switchTraversalSeconds()));
                route.addAll(back);
                classes.add(new OperationClass("server " + s + ", machine " + m,
                        requests[s] / (double) totalRequests * missShare / machines, route));
            }
        }
        if (offPathServerWork) {
            // Per client operation, server s also did backgroundMessages / ops pieces of other work; as
            // arrivals of their own, they and the client operations share the probability mass.
            double[] background = new double[run.servers()];
            double perOp = 0;
            for (int s = 0; s < run.servers(); s++) {
                background[s] = backgroundMessages(run.serverTraffic().get(s)) / ops;
                perOp += background[s];
            }
            double scale = 1 / (1 + perOp);
            List<OperationClass> all = new ArrayList<>();
            for (OperationClass op : classes) {
                all.add(new OperationClass(op.name(), op.probability() * scale, op.route()));
            }
            for (int s = 0; s < run.servers(); s++) {
                HostTraffic h = run.serverTraffic().get(s);
                if (background[s] > 0) {
                    double seconds = (serverWork(h, t, storageOps) - requestWork(h, t, storageOps))
                            / backgroundMessages(h);
                    all.add(new OperationClass("server " + s + " background work", background[s] * scale,
                            List.of(new Visit(serverCpu + s, seconds)), true));
                }
            }
            classes = all;
        }
        return new QueueingNetwork(st, classes);
    }

    /** A server's work on the client requests it received (the rest is background work). */
    static double requestWork(HostTraffic h, Testbed t, Set<Integer> storageOps) {
        double work = 0;
        for (int op : CLIENT_REQUEST_OPS) {
            work += h.received(op) * (storageOps.contains(op) ? t.storageOpSeconds() : t.controlMessageSeconds());
        }
        return work;
    }

    /** Messages a server handled that are not client requests: received ones and ones it originated. */
    static long backgroundMessages(HostTraffic h) {
        long n = h.framesReceived() - clientRequests(h);
        for (Map.Entry<Integer, Tally> e : h.sent().entrySet()) {
            if ((e.getKey() & 0x80) == 0) {
                n += e.getValue().frames;
            }
        }
        return n;
    }
}
