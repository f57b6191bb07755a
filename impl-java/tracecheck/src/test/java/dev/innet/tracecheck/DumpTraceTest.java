package dev.innet.tracecheck;

import dev.innet.farreach.FarReachProtocol;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class DumpTraceTest {
    @Test
    void dump() throws Exception {
        long chaos = Long.getLong("chaos", 1_000_000);
        Path out = Path.of("target", "dump.ndjson");
        TraceRuns.run(new FarReachProtocol(), Long.getLong("seed", 1), chaos, out);
        var r = new TraceValidator(Path.of("..", "..", "specs", "farreach"), Path.of("target", "dumpwork"),
                Duration.ofSeconds(120), FarReachTraceConverter.DEFAULT_CLIENT_LINK_NANOS, 2).validate(out);
        System.out.println("RESULT " + r.summary());
    }
}
