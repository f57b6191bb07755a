package dev.innet.costmodel;

import java.util.List;

/**
 * A kind of operation and how often it occurs: e.g. "a read from client machine 1 that the switch answers"
 * or "a write from client machine 0 that server 7 stores". Its route is the stations it visits in order.
 */
public record OperationClass(String name, double probability, List<Visit> route) {
    public OperationClass {
        if (!(probability >= 0) || probability > 1 + 1e-9 || route == null) {
            throw new IllegalArgumentException("operation class " + name + ": probability in [0,1] and a route");
        }
        route = List.copyOf(route);
    }
}
