package dev.innet.rack.campaign;

import dev.innet.protocol.Protocol;
import dev.innet.rack.Rack;
import dev.innet.rack.check.RunVerdict;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * A campaign: protocols x seeds, one rack run each, every history checked (porcupine and the
 * lost-write monitor) and kept, plus whatever monitors a run adds. The harness's runner for
 * {@code ./innet sim} and for any protocol's campaigns; what a run looks like (rack shape, faults,
 * crashes, protocol-specific monitors) is the caller's {@link RunSetup}.
 */
public final class Campaign {
    private Campaign() {}

    /** Builds one run's rack, with its faults scheduled; the run itself is the campaign's. */
    @FunctionalInterface
    public interface RunSetup {
        PreparedRun prepare(Protocol protocol, long seed) throws Exception;
    }

    /**
     * A rack ready to run, and the findings of any monitors the setup attached (read after the run;
     * empty when there are none).
     */
    public record PreparedRun(Rack rack, Supplier<List<String>> monitorViolations) {
        public static PreparedRun of(Rack rack) {
            return new PreparedRun(rack, List::of);
        }
    }

    /** One run's result. */
    public record Outcome(String protocol, long seed, Rack rack, RunVerdict verdict, List<String> monitorViolations) {
        /** A check saw a bug. */
        public boolean unsafe() {
            return verdict.violated() || !monitorViolations.isEmpty();
        }

        /** Nothing was seen, but porcupine could not decide in time: not a pass. */
        public boolean inconclusive() {
            return !unsafe() && !verdict.safe();
        }

        public String result() {
            return !monitorViolations.isEmpty() ? "MONITOR VIOLATION" : verdict.violated() ? "VIOLATION"
                    : verdict.safe() ? "safe" : "inconclusive";
        }
    }

    /**
     * Runs every protocol for seeds {@code firstSeed .. firstSeed + seeds - 1}, in that order; histories
     * go to {@code historyDir} as {@code <protocol>-seed<S>.jsonl}. {@code onEach} sees each outcome as
     * it is known.
     */
    public static List<Outcome> run(Path repositoryRoot, Path historyDir, List<Protocol> protocols, long firstSeed,
            int seeds, RunSetup setup, Consumer<Outcome> onEach) throws Exception {
        List<Outcome> outcomes = new ArrayList<>();
        for (Protocol protocol : protocols) {
            for (long seed = firstSeed; seed < firstSeed + seeds; seed++) {
                PreparedRun prepared = setup.prepare(protocol, seed);
                prepared.rack().run();
                RunVerdict verdict = RunVerdict.of(repositoryRoot, prepared.rack(), historyDir,
                        protocol.name() + "-seed" + seed);
                Outcome outcome = new Outcome(protocol.name(), seed, prepared.rack(), verdict,
                        List.copyOf(prepared.monitorViolations().get()));
                outcomes.add(outcome);
                onEach.accept(outcome);
            }
        }
        return outcomes;
    }

    /** 1 if any run was unsafe, else 2 if any was inconclusive, else 0. */
    public static int exitCode(List<Outcome> outcomes) {
        if (outcomes.stream().anyMatch(Outcome::unsafe)) {
            return 1;
        }
        return outcomes.stream().anyMatch(Outcome::inconclusive) ? 2 : 0;
    }
}
