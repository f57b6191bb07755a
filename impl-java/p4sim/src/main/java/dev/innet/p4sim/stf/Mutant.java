package dev.innet.p4sim.stf;

import java.util.ArrayList;
import java.util.List;

/**
 * A deliberately broken copy of a program: a run of consecutive source lines replaced by other lines.
 * The random scenarios must catch every mutant, which shows they can fail (p4/tests/README.md).
 *
 * <p>File format (p4/tests/random_stf.mutants): {@code mutant PROGRAM NAME: what it breaks}, then one or
 * more {@code -} lines, then zero or more {@code +} lines. The {@code -} lines must equal exactly one run
 * of consecutive lines of {@code p4/PROGRAM.p4}, compared without leading and trailing blanks, so the
 * file does not have to copy indentation; the {@code +} lines replace that run, indented like its first
 * line. Blank lines and lines starting with {@code #} between mutants are comments.
 */
public record Mutant(String program, String name, String note, List<String> removed, List<String> added, String origin) {

    /** A mutants file that cannot be read as mutants, or a mutant that no longer fits its program. */
    public static final class MutantException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        public MutantException(String message) {
            super(message);
        }
    }

    /** Parses a mutants file; {@code origin} of each mutant is {@code fileName:line} of its header. */
    public static List<Mutant> parse(String fileName, String text) {
        List<Mutant> out = new ArrayList<>();
        String[] lines = StfRunner.lines(text);
        Builder current = null;
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i];
            String where = fileName + ":" + (i + 1);
            if (line.startsWith("mutant ")) {
                if (current != null) {
                    out.add(current.build());
                }
                current = Builder.header(where, line.substring("mutant ".length()));
            } else if (line.startsWith("-") || line.startsWith("+")) {
                if (current == null) {
                    throw new MutantException(where + ": '" + line.charAt(0) + "' line before the first 'mutant' line");
                }
                current.line(where, line.charAt(0), line.substring(1).strip());
            } else if (!line.isBlank() && !line.startsWith("#")) {
                throw new MutantException(where + ": expected 'mutant PROGRAM NAME: note', a '-' or '+' line, "
                        + "a blank line or a '#' comment");
            }
        }
        if (current != null) {
            out.add(current.build());
        }
        for (int i = 0; i < out.size(); i++) {
            for (int j = 0; j < i; j++) {
                if (out.get(i).program.equals(out.get(j).program) && out.get(i).name.equals(out.get(j).name)) {
                    throw new MutantException(out.get(i).origin + ": mutant " + out.get(i).label()
                            + " is defined twice (also at " + out.get(j).origin + ")");
                }
            }
        }
        return out;
    }

    /** {@code PROGRAM NAME}, as messages name the mutant. */
    public String label() {
        return program + " " + name;
    }

    /**
     * The program's source with this mutant applied. The removed lines must occur exactly once: if the
     * program was edited so that they no longer match, the mutant would otherwise silently vanish.
     */
    public String applyTo(String source, String programFile) {
        String[] lines = source.split("\n", -1);
        List<Integer> at = new ArrayList<>();
        for (int i = 0; i + removed.size() <= lines.length; i++) {
            boolean match = true;
            for (int j = 0; j < removed.size() && match; j++) {
                match = lines[i + j].strip().equals(removed.get(j));
            }
            if (match) {
                at.add(i + 1);
            }
        }
        if (at.isEmpty()) {
            throw new MutantException(origin + ": the '-' lines of mutant " + label() + " do not occur in " + programFile
                    + " (was the program edited? update the mutant)");
        }
        if (at.size() > 1) {
            throw new MutantException(origin + ": the '-' lines of mutant " + label() + " occur " + at.size() + " times in "
                    + programFile + " (lines " + at + "); add neighbouring lines until they are unique");
        }
        int first = at.get(0) - 1;
        String indent = lines[first].substring(0, lines[first].length() - lines[first].stripLeading().length());
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < first; i++) {
            sb.append(lines[i]).append('\n');
        }
        for (String a : added) {
            sb.append(a.isEmpty() ? "" : indent + a).append('\n');
        }
        for (int i = first + removed.size(); i < lines.length; i++) {
            sb.append(lines[i]);
            if (i + 1 < lines.length) {
                sb.append('\n');
            }
        }
        return sb.toString();
    }

    private static final class Builder {
        private final String origin;
        private final String program;
        private final String name;
        private final String note;
        private final List<String> removed = new ArrayList<>();
        private final List<String> added = new ArrayList<>();

        private Builder(String origin, String program, String name, String note) {
            this.origin = origin;
            this.program = program;
            this.name = name;
            this.note = note;
        }

        static Builder header(String where, String rest) {
            int colon = rest.indexOf(':');
            String[] words = (colon < 0 ? rest : rest.substring(0, colon)).strip().split("\\s+");
            String note = colon < 0 ? "" : rest.substring(colon + 1).strip();
            if (words.length != 2 || words[0].isEmpty() || note.isEmpty()) {
                throw new MutantException(where + ": expected 'mutant PROGRAM NAME: what it breaks'");
            }
            return new Builder(where, words[0], words[1], note);
        }

        void line(String where, char kind, String text) {
            if (kind == '-') {
                if (!added.isEmpty()) {
                    throw new MutantException(where + ": '-' line after '+' lines (one run of '-' lines, then its replacement)");
                }
                removed.add(text);
            } else {
                added.add(text);
            }
        }

        Mutant build() {
            if (removed.isEmpty()) {
                throw new MutantException(origin + ": mutant " + program + " " + name + " has no '-' lines");
            }
            if (removed.equals(added)) {
                throw new MutantException(origin + ": mutant " + program + " " + name + " changes nothing");
            }
            return new Mutant(program, name, note, List.copyOf(removed), List.copyOf(added), origin);
        }
    }
}
