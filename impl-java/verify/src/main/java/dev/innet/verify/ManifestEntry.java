package dev.innet.verify;

import java.nio.file.Path;

/**
 * One line of a spec or Ivy manifest (docs/layout.md).
 *
 * @param directory  the spec or model directory holding the manifest
 * @param model      TLC model name (MCFoo, meaning MCFoo.tla + MCFoo.cfg) or Ivy file name
 * @param tier       small (CI) or full
 * @param expectation what the run must produce
 * @param note       the rest of the line: model size, the bug a variant injects, or "LIMITATION: ..."
 * @param line       line number in the manifest, for error messages
 */
public record ManifestEntry(Path directory, Kind kind, String model, Tier tier, Expectation expectation, String note,
        int line) {

    public enum Kind { TLC, IVY }

    public enum Tier {
        SMALL, FULL;

        static Tier parse(String s) {
            return switch (s) {
                case "small" -> SMALL;
                case "full" -> FULL;
                default -> throw new IllegalArgumentException("tier must be small or full, got '" + s + "'");
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
