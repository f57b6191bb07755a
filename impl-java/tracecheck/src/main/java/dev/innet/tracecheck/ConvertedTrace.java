package dev.innet.tracecheck;

import java.util.List;
import java.util.Map;

/** One run, converted: the event sequence the trace spec walks and the model files that hold it. */
public interface ConvertedTrace {
    /**
     * The converted events in trace order, each a record of TLA+ values; field {@code src} is the event's
     * line in the NDJSON file (a rejection names it).
     */
    List<Map<String, Object>> steps();

    /**
     * The generated files, by file name, for a model module called {@code modelName}: at least
     * {@code modelName.tla} and {@code modelName.cfg} (whose invariant TraceNotFinished is violated exactly
     * when the trace is consumed, and whose CursorReport prints {@code <<"trace-cursor", l>>}).
     */
    Map<String, String> modelFiles(String modelName);

    /** One step for a report: its fields, without the bookkeeping ones (src, large precomputed sets). */
    default String describe(Map<String, Object> step) {
        StringBuilder b = new StringBuilder();
        step.forEach((k, v) -> {
            if (!k.equals("src") && !hiddenFields().contains(k)) {
                b.append(b.isEmpty() ? "" : " ").append(k).append('=').append(v);
            }
        });
        return b.toString();
    }

    /** Fields of a step left out of {@link #describe}. */
    default java.util.Set<String> hiddenFields() {
        return java.util.Set.of();
    }

    /** A converted run whose model files {@code modelFiles} writes for a model name (every protocol's plug-in). */
    static ConvertedTrace of(List<Map<String, Object>> steps,
            java.util.function.Function<String, Map<String, String>> modelFiles) {
        return new ConvertedTrace() {
            @Override
            public List<Map<String, Object>> steps() {
                return steps;
            }

            @Override
            public Map<String, String> modelFiles(String modelName) {
                return modelFiles.apply(modelName);
            }
        };
    }
}
