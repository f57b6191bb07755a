package dev.innet.app;

import dev.innet.rack.campaign.Campaign;
import dev.innet.protocol.Protocol;
import dev.innet.tracecheck.FarReachTraceConverter;
import dev.innet.tracecheck.TraceValidator;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;

/**
 * The runs of a campaign that are validated against FarReach.tla (implementation -> spec): the first
 * {@code n} FarReach runs record their trace events, which are written next to their history and
 * handed to the trace validator. A rejected run is a finding; an unknown verdict (a run the converter
 * cannot model, or TLC out of time) is reported with its reason and is never a pass.
 */
final class TraceSample {
    private final Path root;
    private final Path outDir;
    private final int n;
    private final int cacheSize;
    private final Duration limit;
    private int taken;
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
        return protocol.name().equals("farreach") && taken < n;
    }

    void check(Campaign.Outcome o, PrintStream out) {
        if (!o.protocol().equals("farreach") || taken >= n) {
            return;
        }
        taken++;
        String name = o.protocol() + "-seed" + o.seed();
        Path ndjson = outDir.resolve(name + ".events.ndjson");
        TraceValidator.Result r;
        try {
            o.rack().simulation().writeTraceEvents(ndjson);
            r = new TraceValidator(root.resolve("specs/farreach"), outDir.resolve("validation").resolve(name),
                    limit, FarReachTraceConverter.DEFAULT_CLIENT_LINK_NANOS, cacheSize).validate(ndjson);
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
        if (taken > 0) {
            out.println("trace validation: " + taken + " run(s) sampled: " + accepted + " accepted, " + rejected
                    + " rejected, " + (taken - accepted - rejected) + " unknown");
        }
    }
}
