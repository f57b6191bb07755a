package dev.innet.pegasus.monitor;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The spec's AtMostOnce invariant (§6.4) checked at run time: a write request (client address, port,
 * request id), however often it is retried or duplicated, is executed by detectors under one version
 * only. Servers report every execution they do as a detector; the monitor lives outside the nodes (like
 * the history), so it sees every server incarnation. Porcupine may not see a double execution at all
 * (the second one is often superseded), this monitor does.
 */
public final class AtMostOnceMonitor {
    /** A request executed under more than one version. */
    public record Violation(String request, Set<Long> versions) {}

    private final Map<String, Set<Long>> executions = new TreeMap<>();

    /** A detector executed request {@code reqId} of the client at {@code ip}:{@code port} under {@code version}. */
    public synchronized void executed(int ip, int port, long reqId, long version) {
        executions.computeIfAbsent(Integer.toUnsignedString(ip, 16) + ":" + port + "#" + reqId, k -> new TreeSet<>())
                .add(version);
    }

    public synchronized List<Violation> violations() {
        List<Violation> out = new ArrayList<>();
        executions.forEach((request, versions) -> {
            if (versions.size() > 1) {
                out.add(new Violation(request, Set.copyOf(versions)));
            }
        });
        return out;
    }

    public synchronized int requests() {
        return executions.size();
    }
}
