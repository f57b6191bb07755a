package dev.innet.protocol;

import java.util.Map;

/**
 * What a protocol's node counted in its current incarnation, by name, for the harness's reports and
 * benchmarks (which know no protocol classes). Names the harness reads: {@code requests} (servers:
 * requests handled), {@code evictions} and {@code admissions} (caching controllers).
 */
public interface NodeCounters {
    Map<String, Long> counters();

    default long counter(String name) {
        return counters().getOrDefault(name, 0L);
    }
}
