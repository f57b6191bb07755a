package dev.innet.verify;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Parses {@code specs/<p>/MANIFEST} (TLC models) and {@code models/<p>/MANIFEST} (Ivy files).
 * Strict: a malformed line, a duplicate model or a model whose files are missing is an error that
 * names the manifest and line, because a silently skipped model is a check that cannot fail.
 */
public final class Manifest {
    public static final String FILE_NAME = "MANIFEST";
    static final String COVERS = "covers=";

    private Manifest() {}

    public static List<ManifestEntry> read(Path directory, ManifestEntry.Kind kind) throws IOException {
        Path file = directory.resolve(FILE_NAME);
        List<String> lines = Files.readAllLines(file);
        List<ManifestEntry> entries = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            ManifestEntry entry = parseLine(directory, kind, line, i + 1);
            if (!seen.add(entry.model())) {
                throw new ManifestException(file, i + 1, "model " + entry.model() + " listed twice");
            }
            requireFiles(file, entry);
            entries.add(entry);
        }
        if (entries.isEmpty()) {
            throw new ManifestException(file, 0, "lists no models");
        }
        return entries;
    }

    static ManifestEntry parseLine(Path directory, ManifestEntry.Kind kind, String line, int lineNo) {
        Path file = directory.resolve(FILE_NAME);
        String[] tokens = line.split("\\s+");
        try {
            return switch (kind) {
                case TLC -> parseTlc(directory, tokens, lineNo);
                case IVY -> parseIvy(directory, tokens, lineNo);
            };
        } catch (IllegalArgumentException e) {
            throw new ManifestException(file, lineNo, e.getMessage());
        }
    }

    // model tier expect [invariant] [covers=A,B,...] note...
    private static ManifestEntry parseTlc(Path dir, String[] t, int lineNo) {
        if (t.length < 3) {
            throw new IllegalArgumentException("expected: <model> <small|full|sim> <ok|violates Inv> [covers=A,B] [note]");
        }
        ManifestEntry.Tier tier = ManifestEntry.Tier.parse(t[1]);
        Expectation expectation;
        int noteFrom;
        switch (t[2]) {
            case "ok" -> {
                expectation = new Expectation.Holds();
                noteFrom = 3;
            }
            case "violates" -> {
                if (t.length < 4) {
                    throw new IllegalArgumentException("'violates' must name the invariant TLC has to refute");
                }
                expectation = new Expectation.Violates(t[3]);
                noteFrom = 4;
            }
            default -> throw new IllegalArgumentException("expect must be 'ok' or 'violates <Invariant>', got '" + t[2] + "'");
        }
        List<String> covers = List.of();
        if (noteFrom < t.length && t[noteFrom].startsWith(COVERS)) {
            if (!(expectation instanceof Expectation.Holds)) {
                throw new IllegalArgumentException("covers= applies to ok models (a refuted variant stops early)");
            }
            covers = List.of(t[noteFrom].substring(COVERS.length()).split(","));
            if (covers.stream().anyMatch(a -> !a.matches("[A-Za-z][A-Za-z0-9_]*"))) {
                throw new IllegalArgumentException("covers= takes action names separated by commas, got '" + t[noteFrom] + "'");
            }
            noteFrom++;
        }
        return new ManifestEntry(dir, ManifestEntry.Kind.TLC, t[0], tier, expectation, covers, join(t, noteFrom),
                lineNo);
    }

    // file.ivy ok|fails note...   (Ivy proofs are all "small": they are unbounded and quick)
    private static ManifestEntry parseIvy(Path dir, String[] t, int lineNo) {
        if (t.length < 2) {
            throw new IllegalArgumentException("expected: <file.ivy> <ok|fails> [note]");
        }
        if (!t[0].endsWith(".ivy")) {
            throw new IllegalArgumentException("not an .ivy file: " + t[0]);
        }
        Expectation expectation = switch (t[1]) {
            case "ok" -> new Expectation.Holds();
            case "fails" -> new Expectation.ProofFails();
            default -> throw new IllegalArgumentException("expect must be 'ok' or 'fails', got '" + t[1] + "'");
        };
        return new ManifestEntry(dir, ManifestEntry.Kind.IVY, t[0], ManifestEntry.Tier.SMALL, expectation, List.of(),
                join(t, 2), lineNo);
    }

    private static void requireFiles(Path manifest, ManifestEntry e) {
        List<String> needed = e.kind() == ManifestEntry.Kind.TLC
                ? List.of(e.model() + ".tla", e.model() + ".cfg")
                : List.of(e.model());
        for (String name : needed) {
            if (!Files.isRegularFile(e.directory().resolve(name))) {
                throw new ManifestException(manifest, e.line(), "missing file " + name);
            }
        }
    }

    private static String join(String[] tokens, int from) {
        return from >= tokens.length ? "" : String.join(" ", java.util.Arrays.copyOfRange(tokens, from, tokens.length));
    }

    /** A manifest that cannot be trusted; the message names the file and line. */
    public static final class ManifestException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        ManifestException(Path file, int line, String message) {
            super(file + (line > 0 ? ":" + line : "") + ": " + message);
        }
    }
}
