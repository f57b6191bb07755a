package dev.innet.costmodel;

import java.util.List;

/**
 * A kind of operation and how often it occurs: e.g. "a read from client machine 1 that the switch answers"
 * or "a write from client machine 0 that server 7 stores". Its route is the stations it visits in order.
 * A {@code background} class is work that occupies stations but that no client waits for (a replica
 * applying a forwarded write): the simulator queues it like any other and leaves it out of the latencies
 * it reports.
 */
public record OperationClass(String name, double probability, List<Visit> route, boolean background) {
    /** A class of operations clients wait for. */
    public OperationClass(String name, double probability, List<Visit> route) {
        this(name, probability, route, false);
    }

    public OperationClass {
        if (!(probability >= 0) || probability > 1 + 1e-9 || route == null) {
            throw new IllegalArgumentException("operation class " + name + ": probability in [0,1] and a route");
        }
        route = List.copyOf(route);
    }
}
