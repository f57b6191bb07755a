package dev.innet.verify;

import java.nio.file.Path;
import java.util.List;

/**
 * One line of a spec or Ivy manifest (docs/layout.md).
 *
 * @param directory  the spec or model directory holding the manifest
 * @param model      TLC model name (MCFoo, meaning MCFoo.tla + MCFoo.cfg) or Ivy file name
 * @param tier       small (the default), medium (on request), full or sim
 * @param expectation what the run must produce
 * @param covers     action labels (the spec's {@code act.a}) an ok model must take at least once
 *                   ({@code covers=A,B} in the manifest); empty: not checked
 * @param note       the rest of the line: model size, the bug a variant injects, or "LIMITATION: ..."
 * @param line       line number in the manifest, for error messages
 */
public record ManifestEntry(Path directory, Kind kind, String model, Tier tier, Expectation expectation, List<String> covers,
        String note, int line) {

    public enum Kind { TLC, IVY }

    /**
     * small: seconds each, run by default (./innet verify, ./innet check, ./innet test); medium: up to about
     * two minutes each, run when asked for (--tier medium, the mutation gate's spec layer), to keep the
     * default under its time budget; full: large models (--full); sim: TLC random simulation only
     * (./innet verify --simulate).
     */
    public enum Tier {
        SMALL, MEDIUM, FULL, SIM;

        static Tier parse(String s) {
            return switch (s) {
                case "small" -> SMALL;
                case "medium" -> MEDIUM;
                case "full" -> FULL;
                case "sim" -> SIM;
                default -> throw new IllegalArgumentException("tier must be small, medium, full or sim, got '" + s + "'");
            };
        }
    }

    /** A manifest line marking a documented protocol limitation rather than an injected bug. */
    public boolean isLimitation() {
        return note.startsWith("LIMITATION:");
    }

    /** Short name for tables: the directory's name (the protocol). */
    public String spec() {
        return directory.getFileName().toString();
    }
}
