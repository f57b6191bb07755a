package dev.innet.sim;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * A protocol event for trace validation: a node says "a spec action happened here" with the parameters
 * needed to check it (docs/conformance.md, "Trace validation"). Nodes build one and hand it to
 * {@link NodeContext#trace}; the simulator records it with the simulated time and host, a live host writes
 * it only when configured to. Field values are strings, integers or booleans, in the order added.
 */
public final class TraceEvent {
    /** Names the recorder itself writes on every line; a field may not reuse them. */
    public static final Set<String> RESERVED = Set.of("time", "host", "incarnation", "event", "stepStart");

    /**
     * The field a live host adds last on a line when asked to ({@link #toJsonLine(long, int, int, long)}): when the
     * handler that emitted the event began, on the same clock as {@code time}. A live rack's merge uses it to place a
     * controller step at the switch write that made it visible, then removes it (dev.innet.live.TraceEventsMerge).
     */
    public static final String STEP_START = "stepStart";

    private final String kind;
    private final LinkedHashMap<String, Object> fields = new LinkedHashMap<>();

    private TraceEvent(String kind) {
        if (kind == null || kind.isEmpty()) {
            throw new IllegalArgumentException("a trace event needs a kind");
        }
        this.kind = kind;
    }

    public static TraceEvent of(String kind) {
        return new TraceEvent(kind);
    }

    public TraceEvent with(String name, String value) {
        return put(name, Objects.requireNonNull(value, name));
    }

    public TraceEvent with(String name, long value) {
        return put(name, value);
    }

    public TraceEvent with(String name, boolean value) {
        return put(name, value);
    }

    private TraceEvent put(String name, Object value) {
        if (RESERVED.contains(name) || fields.containsKey(name)) {
            throw new IllegalArgumentException("trace event field '" + name + "' is reserved or given twice");
        }
        fields.put(name, value);
        return this;
    }

    public String kind() {
        return kind;
    }

    /** The fields in the order they were added (values: String, Long or Boolean). */
    public Map<String, Object> fields() {
        return Collections.unmodifiableMap(fields);
    }

    /** One NDJSON line (no newline): time, host, incarnation, event kind, then the fields. */
    public String toJsonLine(long timeNanos, int host, int incarnation) {
        return appendJson(timeNanos, host, incarnation).append('}').toString();
    }

    /** As {@link #toJsonLine(long, int, int)}, with {@link #STEP_START} as the last field. */
    public String toJsonLine(long timeNanos, int host, int incarnation, long stepStartNanos) {
        return appendJson(timeNanos, host, incarnation).append(",\"").append(STEP_START).append("\":").append(stepStartNanos)
                .append('}').toString();
    }

    private StringBuilder appendJson(long timeNanos, int host, int incarnation) {
        StringBuilder b = new StringBuilder(64 + 24 * fields.size());
        b.append("{\"time\":").append(timeNanos).append(",\"host\":").append(host).append(",\"incarnation\":")
                .append(incarnation).append(",\"event\":");
        quote(b, kind);
        for (Map.Entry<String, Object> f : fields.entrySet()) {
            b.append(',');
            quote(b, f.getKey());
            b.append(':');
            if (f.getValue() instanceof String s) {
                quote(b, s);
            } else {
                b.append(f.getValue());
            }
        }
        return b;
    }

    private static void quote(StringBuilder b, String s) {
        b.append('"');
        for (int i = 0; i < s.length(); i++) {
            char ch = s.charAt(i);
            switch (ch) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                default -> {
                    if (ch < 0x20) {
                        b.append(String.format("\\u%04x", (int) ch));
                    } else {
                        b.append(ch);
                    }
                }
            }
        }
        b.append('"');
    }

    @Override
    public String toString() {
        return toJsonLine(0, 0, 0);
    }
}
