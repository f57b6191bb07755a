package dev.innet.verify.mutate;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The catalogue of single-line bugs that {@code ./innet mutate} seeds (docs/verification.md). A text file
 * of blocks, one per bug:
 *
 * <pre>
 * bug server-ignores-seq                    a unique id: lower case, digits, dashes
 * protocol farreach                         the protocol whose checks run
 * what servers apply every numbered write, even one older than the stored record
 * edit impl-java/kv/src/main/java/dev/innet/kv/store/RecordStore.java
 * at   static boolean supersedes(            optional: search from the first line containing this
 * -    return incoming.seq() > current.get().seq();
 * +    return true;
 * edit specs/farreach/FarReach.tla          more edits: the same bug where it lives in other layers
 * ...
 * </pre>
 *
 * Each edit replaces one line: the first line (after the {@code at} anchor, if given) whose content,
 * trimmed, equals the {@code -} text, keeping that line's indentation. Lines starting with '#' and
 * blank lines are ignored. A malformed catalogue is refused naming its line.
 */
public record Catalogue(List<Bug> bugs) {
    /** One bug: the same mistake, seeded in every layer that has its own copy of the rule. */
    public record Bug(String id, String protocol, String what, List<Edit> edits) {
        public Bug {
            edits = List.copyOf(edits);
        }

        /** Which kinds of source the bug touches (decides which layers can see it). */
        public Set<SourceKind> kinds() {
            Set<SourceKind> kinds = new LinkedHashSet<>();
            for (Edit e : edits) {
                kinds.add(SourceKind.of(e.path()));
            }
            return kinds;
        }

        /** The same bug with only its edits in sources of these kinds. */
        public Bug onlyIn(Set<SourceKind> keep) {
            return new Bug(id, protocol, what, edits.stream().filter(e -> keep.contains(SourceKind.of(e.path()))).toList());
        }
    }

    /** One single-line replacement. */
    public record Edit(String path, String anchor, String before, String after, int catalogueLine) {
    }

    /** What kind of source a path is: where a seeded bug lives. */
    public enum SourceKind {
        TLA, IVY, P4, JAVA, GO;

        static SourceKind of(String path) {
            if (path.endsWith(".tla")) {
                return TLA;
            }
            if (path.endsWith(".ivy")) {
                return IVY;
            }
            if (path.endsWith(".p4")) {
                return P4;
            }
            if (path.endsWith(".java")) {
                return JAVA;
            }
            if (path.endsWith(".go")) {
                return GO;
            }
            throw new IllegalArgumentException("no layer checks files like " + path);
        }
    }

    public static Catalogue read(Path file) throws IOException {
        return parse(Files.readAllLines(file), file.toString());
    }

    public static Catalogue parse(List<String> lines, String name) {
        List<Bug> bugs = new ArrayList<>();
        Set<String> ids = new LinkedHashSet<>();
        String id = null;
        String protocol = null;
        String what = null;
        List<Edit> edits = new ArrayList<>();
        String path = null;
        String anchor = null;
        String before = null;
        int beforeLine = 0;
        for (int i = 0; i < lines.size(); i++) {
            int number = i + 1;
            String line = lines.get(i);
            String trimmed = line.strip();
            if (trimmed.isEmpty() || trimmed.startsWith("#")) {
                continue;
            }
            String keyword = trimmed.split("\\s+", 2)[0];
            String rest = trimmed.length() > keyword.length() ? trimmed.substring(keyword.length()).strip() : "";
            switch (keyword) {
                case "bug" -> {
                    if (id != null) {
                        bugs.add(finish(name, id, protocol, what, edits, path, before, beforeLine));
                    }
                    if (!rest.matches("[a-z0-9]+(-[a-z0-9]+)*")) {
                        throw error(name, number, "a bug id is lower case letters, digits and dashes, got '" + rest + "'");
                    }
                    if (!ids.add(rest)) {
                        throw error(name, number, "bug '" + rest + "' is catalogued twice");
                    }
                    id = rest;
                    protocol = null;
                    what = null;
                    edits = new ArrayList<>();
                    path = null;
                    anchor = null;
                    before = null;
                }
                case "protocol" -> protocol = require(name, number, id, rest, "protocol");
                case "what" -> what = require(name, number, id, rest, "what");
                case "edit" -> {
                    require(name, number, id, rest, "edit");
                    if (path != null && before != null) {
                        throw error(name, number, "the edit of " + path + " has a '-' line but no '+' line");
                    }
                    try {
                        SourceKind.of(rest);
                    } catch (IllegalArgumentException e) {
                        throw error(name, number, e.getMessage());
                    }
                    path = rest;
                    anchor = null;
                    before = null;
                }
                case "at" -> {
                    if (path == null) {
                        throw error(name, number, "'at' before any 'edit'");
                    }
                    anchor = rest;
                }
                case "-" -> {
                    if (path == null || before != null) {
                        throw error(name, number, "a '-' line belongs right after an 'edit' (or its 'at')");
                    }
                    if (rest.isEmpty()) {
                        throw error(name, number, "a '-' line needs the text of the line to replace");
                    }
                    before = rest;
                    beforeLine = number;
                }
                case "+" -> {
                    if (before == null) {
                        throw error(name, number, "a '+' line belongs right after a '-' line");
                    }
                    edits.add(new Edit(path, anchor, before, rest, beforeLine));
                    path = null;
                    anchor = null;
                    before = null;
                }
                default -> throw error(name, number, "unknown keyword '" + keyword
                        + "' (expected bug, protocol, what, edit, at, -, +)");
            }
        }
        if (id != null) {
            bugs.add(finish(name, id, protocol, what, edits, path, before, beforeLine));
        }
        if (bugs.isEmpty()) {
            throw new IllegalArgumentException(name + ": the catalogue has no bugs");
        }
        return new Catalogue(List.copyOf(bugs));
    }

    private static Bug finish(String name, String id, String protocol, String what, List<Edit> edits, String path,
            String before, int beforeLine) {
        if (before != null) {
            throw error(name, beforeLine, "bug '" + id + "': the edit of " + path + " has no '+' line");
        }
        if (path != null) {
            throw new IllegalArgumentException(name + ": bug '" + id + "': 'edit " + path + "' has no '-'/'+' lines");
        }
        if (protocol == null || what == null || edits.isEmpty()) {
            throw new IllegalArgumentException(name + ": bug '" + id + "' needs 'protocol', 'what' and at least one edit");
        }
        return new Bug(id, protocol, what, edits);
    }

    private static String require(String name, int number, String id, String rest, String keyword) {
        if (id == null) {
            throw error(name, number, "'" + keyword + "' before any 'bug'");
        }
        if (rest.isEmpty()) {
            throw error(name, number, "'" + keyword + "' needs a value");
        }
        return rest;
    }

    private static IllegalArgumentException error(String name, int number, String message) {
        return new IllegalArgumentException(name + ":" + number + ": " + message);
    }
}
