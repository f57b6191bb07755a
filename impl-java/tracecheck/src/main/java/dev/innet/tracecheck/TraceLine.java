package dev.innet.tracecheck;

import java.util.Map;

/**
 * One line of a run's NDJSON trace (written by {@code Simulation.writeTraceEvents}): its 1-based line
 * number, the simulated time, the host and its incarnation, the event kind and the event's own fields (String, Long or Boolean).
 */
public record TraceLine(int line, long time, int host, int incarnation, String event, Map<String, Object> fields) {

    public String string(String name) {
        Object v = require(name);
        if (!(v instanceof String s)) {
            throw bad(name, "a string");
        }
        return s;
    }

    public long number(String name) {
        Object v = require(name);
        if (!(v instanceof Long n)) {
            throw bad(name, "an integer");
        }
        return n;
    }

    public boolean flag(String name) {
        Object v = require(name);
        if (!(v instanceof Boolean b)) {
            throw bad(name, "a boolean");
        }
        return b;
    }

    public boolean has(String name) {
        return fields.containsKey(name);
    }

    private Object require(String name) {
        Object v = fields.get(name);
        if (v == null) {
            throw new TraceFormatException("line " + line + " (" + event + "): field '" + name + "' is missing");
        }
        return v;
    }

    private TraceFormatException bad(String name, String what) {
        return new TraceFormatException("line " + line + " (" + event + "): field '" + name + "' is not " + what);
    }
}
