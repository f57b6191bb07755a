package dev.innet.costmodel;

import java.util.List;

/**
 * A kind of operation and how often it occurs: e.g. "a read from client machine 1 that the switch answers"
 * or "a write from client machine 0 that server 7 stores". Its route is the stations it visits in order.
 *
 * <p>Two kinds of work no client waits for, with different queueing:
 * <ul>
 *   <li>A {@code background} class is work that occupies stations but that no client waits for (a replica
 *       applying a forwarded write): the simulator queues it like any other and leaves it out of the
 *       latencies it reports.</li>
 *   <li>Within a class, the client has its answer after the first {@code repliedAfter} visits; the rest of
 *       the route is work the operation leaves behind (an asynchronous metadata update), which loads the
 *       stations but is not part of the latency; the closed-loop simulator serves it only when no waiting
 *       request is queued.</li>
 * </ul>
 */
public record OperationClass(String name, double probability, List<Visit> route, boolean background, int repliedAfter) {
    public OperationClass {
        if (!(probability >= 0) || probability > 1 + 1e-9 || route == null) {
            throw new IllegalArgumentException("operation class " + name + ": probability in [0,1] and a route");
        }
        if (repliedAfter < 0 || repliedAfter > route.size()) {
            throw new IllegalArgumentException("operation class " + name + ": replied after 0.." + route.size()
                    + " visits, not " + repliedAfter);
        }
        route = List.copyOf(route);
    }

    /** A class whose client waits for the whole route. */
    public OperationClass(String name, double probability, List<Visit> route) {
        this(name, probability, route, false);
    }

    /** A class clients wait for the whole of, or ({@code background}) that no client waits for. */
    public OperationClass(String name, double probability, List<Visit> route, boolean background) {
        this(name, probability, route, background, route == null ? 0 : route.size());
    }

    /** A class whose client has its answer after the first {@code repliedAfter} visits. */
    public OperationClass(String name, double probability, List<Visit> route, int repliedAfter) {
        this(name, probability, route, false, repliedAfter);
    }
}
