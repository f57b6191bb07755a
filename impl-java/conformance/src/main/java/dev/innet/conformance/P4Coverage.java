package dev.innet.conformance;

import dev.innet.p4sim.coverage.Coverage;
import dev.innet.p4sim.coverage.CoveragePoint;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * The P4 coverage of a conformance run: every switch the run's replay targets instantiated (one per
 * trace, and another after each switch crash) counts its tables, actions and branch outcomes
 * (p4sim's {@link Coverage}); this collects them and reports the merged counts. The protocol modules
 * and the replay SPI know nothing of it: {@link P4simReplayTarget#factory(Path, Path, long, P4Coverage)}
 * registers each switch it creates.
 */
public final class P4Coverage {
    /** The JSON file {@link #report} writes into the run's output directory. */
    public static final String JSON_FILE = "p4-coverage.json";

    /** Each holds one switch's counters, not the switch. */
    private final List<Supplier<Coverage>> switches = new ArrayList<>();

    void add(Supplier<Coverage> oneSwitch) {
        switches.add(oneSwitch);
    }

    public int switches() {
        return switches.size();
    }

    /** Every switch's counts so far, merged, with file names relative to {@code root}. */
    public Coverage total(Path root) {
        Coverage all = Coverage.empty();
        for (Supplier<Coverage> s : switches) {
            all = all.merge(s.get());
        }
        return all.relativeTo(root);
    }

    /**
     * Prints "P4 coverage: tables a/b, actions c/d, branches e/f, register guards g/h", then every point
     * never exercised (file:line, kind, what, source line), and writes every point with its count to
     * {@code outDir}/{@value #JSON_FILE}. Returns the merged coverage.
     */
    public Coverage report(Path root, Path outDir, PrintStream out) throws IOException {
        Coverage c = total(root);
        out.printf("%nP4 coverage: %s (%d switches)%n", c.summary(), switches.size());
        List<CoveragePoint> never = c.unexercised();
        if (!never.isEmpty()) {
            out.printf("  never exercised (%d):%n", never.size());
            for (CoveragePoint p : never) {
                out.println("    " + p.describe());
            }
        }
        Files.createDirectories(outDir);
        Path json = outDir.resolve(JSON_FILE);
        Files.writeString(json, c.toJson());
        out.println("  every point with its count: " + json);
        return c;
    }
}
