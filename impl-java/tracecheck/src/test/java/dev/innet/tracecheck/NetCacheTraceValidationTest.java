package dev.innet.tracecheck;

import dev.innet.netcache.NetCacheProtocol;
import dev.innet.rack.Rack;
import dev.innet.rack.RackRuns;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class NetCacheTraceValidationTest {
    private static final Path SPECS = Path.of(System.getProperty("innet.root", "../.."), "specs", "netcache");

    static Rack run(NetCacheProtocol protocol, long seed, long chaosNanos, Path out) {
        Rack rack = TraceRuns.small(chaosNanos).rack(RackRuns.root(), protocol, seed).recordTraceEvents(true)
                .out(RackRuns.QUIET).build();
        rack.run();
        rack.simulation().writeTraceEvents(out);
        return rack;
    }

    @Test
    void dump() throws Exception {
        long seed = Long.getLong("ncSeed", 1);
        long chaos = Long.getLong("ncChaos", 1_500_000);
        Path work = Path.of("target/nc-dump/seed" + seed);
        Rack r = run(new NetCacheProtocol(), seed, chaos, work.resolve("run.ndjson"));
        System.out.println(r.controllerCounters());
        TraceValidator.Result res = new TraceValidator(new NetCacheTraceConversion(), SPECS, work.resolve("tlc"),
                Duration.ofSeconds(300), TraceSettings.rack(TraceRuns.CACHE_SLOTS)).validate(work.resolve("run.ndjson"));
        System.out.println("RESULT " + res.summary());
    }
}
