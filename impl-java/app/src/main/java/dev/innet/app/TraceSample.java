package dev.innet.app;

import dev.innet.rack.campaign.Campaign;
import dev.innet.protocol.Protocol;
import dev.innet.tracecheck.TraceConversion;
import dev.innet.tracecheck.TraceConversions;
import dev.innet.tracecheck.TraceSettings;
import dev.innet.tracecheck.TraceValidator;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/**
 * The runs of a campaign that are validated against their protocol's spec (implementation -> spec): the
 * first {@code n} runs of each protocol with trace validation (FarReach, NetCache, LaKe, DistCache, visibility, Pegasus) record their trace
 * events, which are written next to their history and handed to the trace validator. A rejected run is a finding; an unknown verdict (a run the converter
 * cannot model, or TLC out of time) is reported with its reason and is never a pass.
 */
final class TraceSample {
    private final Path root;
    private final Path outDir;
    private final int n;
    private final int cacheSize;
    private final Duration limit;
    private final Map<String, Integer> taken = new HashMap<>();
    private int accepted;
    private int rejected;

    TraceSample(Path root, Path outDir, int n, int cacheSize, Duration limit) {
        this.root = root;
        this.outDir = outDir;
        this.n = n;
        this.cacheSize = cacheSize;
        this.limit = limit;
    }

    /** Whether the run about to be built is sampled (it must then record its trace events). */
    boolean wants(Protocol protocol, long seed) {
        return TraceConversions.covers(protocol.name()) && taken.getOrDefault(protocol.name(), 0) < n;
    }

    void check(Campaign.Outcome o, PrintStream out) {
        if (!TraceConversions.covers(o.protocol()) || taken.getOrDefault(o.protocol(), 0) >= n) {
            return;
        }
        taken.merge(o.protocol(), 1, Integer::sum);
        TraceConversion conversion = TraceConversions.of(o.protocol());
        String name = o.protocol() + "-seed" + o.seed();
        Path ndjson = outDir.resolve(name + ".events.ndjson");
        TraceValidator.Result r;
        try {
            o.rack().simulation().writeTraceEvents(ndjson);
            r = new TraceValidator(conversion, root.resolve(conversion.specDirectory()),
                    outDir.resolve("validation").resolve(name), limit, TraceSettings.rack(cacheSize))
                    .validate(ndjson);
        } catch (IOException e) {
            out.println("  trace validation: unknown: " + e.getMessage());
            return;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            out.println("  trace validation: unknown: interrupted");
            return;
        }
        switch (r.verdict()) {
            case ACCEPTED -> accepted++;
            case REJECTED -> rejected++;
            case UNKNOWN -> { } // reported below with its reason; never counted as accepted
        }
        out.println("  trace validation: " + r.summary() + " [" + ndjson + "]");
    }

    int rejected() {
        return rejected;
    }

    /** One line: how many sampled runs the spec admitted, rejected, or could not decide. */
    void summary(PrintStream out) {
        int sampled = taken.values().stream().mapToInt(Integer::intValue).sum();
        if (sampled > 0) {
            out.println("trace validation: " + sampled + " run(s) sampled: " + accepted + " accepted, " + rejected
                    + " rejected, " + (sampled - accepted - rejected) + " unknown");
        }
    }
}
