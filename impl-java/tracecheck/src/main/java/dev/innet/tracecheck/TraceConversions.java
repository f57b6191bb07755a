package dev.innet.tracecheck;

import java.util.List;
import java.util.ServiceLoader;
import java.util.TreeMap;

/** The registered {@link TraceConversion}s (ServiceLoader): the protocols trace validation covers. */
public final class TraceConversions {
    private TraceConversions() {}

    /** Every registered conversion, sorted by protocol; two for one protocol is an error. */
    public static List<TraceConversion> all() {
        TreeMap<String, TraceConversion> byName = new TreeMap<>();
        for (TraceConversion c : ServiceLoader.load(TraceConversion.class, TraceConversions.class.getClassLoader())) {
            TraceConversion clash = byName.put(c.protocol(), c);
            if (clash != null) {
                throw new IllegalStateException("two trace conversions for '" + c.protocol() + "': "
                        + clash.getClass().getName() + " and " + c.getClass().getName());
            }
        }
        return List.copyOf(byName.values());
    }

    /** Whether runs of {@code protocol} can be validated. */
    public static boolean covers(String protocol) {
        return all().stream().anyMatch(c -> c.protocol().equals(protocol));
    }

    /** The conversion of {@code protocol}; an unknown one says which exist. */
    public static TraceConversion of(String protocol) {
        return all().stream().filter(c -> c.protocol().equals(protocol)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no trace validation for protocol '" + protocol
                        + "' (covered: " + all().stream().map(TraceConversion::protocol).toList() + ")"));
    }
}
