package dev.innet.verify.mutate;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Applies a bug's edits to a source tree and puts the files back afterwards. Every edit must find its
 * line: a catalogue that no longer matches the code is an error, never a silently skipped bug.
 */
public final class Mutator {
    private Mutator() {
    }

    /** The original contents of every file a bug changed, to restore them. */
    public record Applied(Map<Path, String> originals) {
        public void restore() throws IOException {
            for (Map.Entry<Path, String> e : originals.entrySet()) {
                Files.writeString(e.getKey(), e.getValue(), StandardCharsets.UTF_8);
            }
        }
    }

    /** Applies every edit of {@code bug} under {@code tree}; on an edit that does not match, changes nothing. */
    public static Applied apply(Path tree, Catalogue.Bug bug) throws IOException {
        Map<Path, String> originals = new LinkedHashMap<>();
        Map<Path, List<String>> changed = new LinkedHashMap<>();
        for (Catalogue.Edit edit : bug.edits()) {
            Path file = tree.resolve(edit.path());
            if (!Files.isRegularFile(file)) {
                throw new IllegalArgumentException("bug '" + bug.id() + "': no file " + edit.path());
            }
            originals.computeIfAbsent(file, f -> read(f));
            List<String> lines = changed.computeIfAbsent(file, f -> new ArrayList<>(originals.get(f).lines().toList()));
            int at = lineOf(lines, edit, bug.id());
            String line = lines.get(at);
            String indent = line.substring(0, line.length() - line.stripLeading().length());
            lines.set(at, indent + edit.after());
        }
        for (Map.Entry<Path, List<String>> e : changed.entrySet()) {
            String original = originals.get(e.getKey());
            String text = String.join("\n", e.getValue()) + (original.endsWith("\n") ? "\n" : "");
            Files.writeString(e.getKey(), text, StandardCharsets.UTF_8);
        }
        return new Applied(originals);
    }

    /** The index of the line an edit replaces: the first whose trimmed text equals the '-' text. */
    static int lineOf(List<String> lines, Catalogue.Edit edit, String bugId) {
        int from = 0;
        if (edit.anchor() != null) {
            from = -1;
            for (int i = 0; i < lines.size(); i++) {
                if (lines.get(i).contains(edit.anchor())) {
                    from = i;
                    break;
                }
            }
            if (from < 0) {
                throw new IllegalArgumentException("bug '" + bugId + "' (catalogue line " + edit.catalogueLine() + "): "
                        + edit.path() + " has no line containing the anchor '" + edit.anchor() + "'");
            }
        }
        for (int i = from; i < lines.size(); i++) {
            if (lines.get(i).strip().equals(edit.before())) {
                return i;
            }
        }
        throw new IllegalArgumentException("bug '" + bugId + "' (catalogue line " + edit.catalogueLine() + "): "
                + edit.path() + " has no line '" + edit.before() + "'" + (edit.anchor() == null ? "" : " after the anchor"));
    }

    private static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
