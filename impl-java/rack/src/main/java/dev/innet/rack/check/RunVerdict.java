package dev.innet.rack.check;

import dev.innet.rack.Rack;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Both history checks of one rack run: the lost-write monitor (in Java) and porcupine (the Go
 * lincheck command). The history is kept as {@code <dir>/<name>.jsonl}, with porcupine's HTML view
 * next to it when the run is not linearizable.
 */
public record RunVerdict(String name, long seed, int operations, List<LostWriteMonitor.Violation> lostWrites,
        Lincheck.Verdict linearizability, String lincheckOutput, Path history) {

    public boolean safe() {
        return lostWrites.isEmpty() && linearizability == Lincheck.Verdict.LINEARIZABLE;
    }

    /** A bug was seen (an unknown porcupine verdict is neither safe nor a violation). */
    public boolean violated() {
        return !lostWrites.isEmpty() || linearizability == Lincheck.Verdict.NOT_LINEARIZABLE;
    }

    public static RunVerdict of(Path repositoryRoot, Rack rack, Path dir, String name) throws IOException,
            InterruptedException {
        Files.createDirectories(dir);
        Path history = dir.resolve(name + ".jsonl");
        Files.writeString(history, rack.history().toJsonLines());
        List<LostWriteMonitor.Violation> lost = LostWriteMonitor.check(rack.history());
        Lincheck.Result r = Lincheck.check(repositoryRoot, history, null, 30);
        if (r.verdict() == Lincheck.Verdict.NOT_LINEARIZABLE) {
            r = Lincheck.check(repositoryRoot, history, dir.resolve(name + ".html"), 30);
        }
        return new RunVerdict(name, rack.simulation().seed(), rack.history().operations().size(), lost, r.verdict(),
                r.output(), history);
    }

    public String describe() {
        return name + " (seed " + seed + ", " + operations + " operations): " + (safe() ? "safe"
                : "lost writes " + lostWrites.size() + ", porcupine " + linearizability + "\n" + lincheckOutput
                        + (lostWrites.isEmpty() ? "" : "\nfirst lost write: " + lostWrites.get(0)))
                + "\n  history: " + history;
    }
}
