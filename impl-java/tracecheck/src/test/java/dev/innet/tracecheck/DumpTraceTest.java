package dev.innet.tracecheck;

import dev.innet.farreach.FarReachProtocol;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class DumpTraceTest {
    @Test
    void dump() {
        TraceRuns.run(new FarReachProtocol(), 1, 2_000_000, Path.of("target", "dump.ndjson"));
    }
}
