package dev.innet.tracegen;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads states as TLC prints them: a conjunction {@code /\ var = value} per variable (values may span
 * lines), both in the behaviour files {@code -simulate file=...} writes ({@code STATE_i == ...} blocks
 * in a module) and in the node labels of {@code -dump dot}.
 */
public final class TlcStateText {
    /** One state: its variables in the order TLC printed them. */
    public record State(List<TlaValue.Field> vars) {
        public State {
            vars = List.copyOf(vars);
        }

        /** The value of variable {@code name}; a missing variable is an error that names it. */
        public TlaValue get(String name) {
            return vars.stream().filter(f -> f.name().equals(name)).map(TlaValue.Field::value).findFirst()
                    .orElseThrow(() -> new IllegalArgumentException("the state has no variable '" + name + "'"));
        }

        public boolean has(String name) {
            return vars.stream().anyMatch(f -> f.name().equals(name));
        }
    }

    private static final Pattern STATE_HEADER = Pattern.compile("(?m)^STATE_(\\d+) ==");
    private static final Pattern MODULE_END = Pattern.compile("(?m)^====");

    private TlcStateText() {}

    /** Parses {@code /\ v1 = e1 /\ v2 = e2 ...} (or a lone {@code v = e}); offsets in errors are into {@code text}. */
    public static State parseState(String text) {
        return parseBlock(text);
    }

    /** Offsets in errors are into the block {@code text[from, to)}. */
    static State parseState(String text, int from, int to) {
        return parseBlock(text.substring(from, to));
    }

    private static State parseBlock(String text) {
        int from = 0;
        int to = text.length();
        List<TlaValue.Field> vars = new ArrayList<>();
        int pos = skipSpace(text, from, to);
        boolean conjunction = text.startsWith("/\\", pos);
        while (pos < to) {
            if (conjunction) {
                if (!text.startsWith("/\\", pos)) {
                    throw new TlaValueParser.ParseException("expected '/\\' before the next variable", pos);
                }
                pos = skipSpace(text, pos + 2, to);
            }
            int nameStart = pos;
            while (pos < to && TlaSyntax.isIdentifierChar(text.charAt(pos))) {
                pos++;
            }
            String name = text.substring(nameStart, pos);
            if (!TlaSyntax.isIdentifier(name)) {
                throw new TlaValueParser.ParseException("expected a variable name", nameStart);
            }
            pos = skipSpace(text, pos, to);
            if (pos >= to || text.charAt(pos) != '=') {
                throw new TlaValueParser.ParseException("expected '=' after variable '" + name + "'", pos);
            }
            TlaValueParser.Prefix value = TlaValueParser.parsePrefix(text, pos + 1);
            if (vars.stream().anyMatch(f -> f.name().equals(name))) {
                throw new TlaValueParser.ParseException("variable '" + name + "' appears twice", nameStart);
            }
            vars.add(new TlaValue.Field(name, value.value()));
            pos = skipSpace(text, value.end(), to);
            if (!conjunction && pos < to) {
                throw new TlaValueParser.ParseException("expected the end of the state", pos);
            }
        }
        if (vars.isEmpty()) {
            throw new TlaValueParser.ParseException("a state with no variables", from);
        }
        return new State(vars);
    }

    /**
     * Parses a behaviour file from {@code -simulate file=...}: the {@code STATE_1 .. STATE_n} blocks in
     * order (a missing or out-of-order number is an error: the file would not be one behaviour).
     */
    public static List<State> parseBehaviour(String text) {
        Matcher header = STATE_HEADER.matcher(text);
        List<int[]> blocks = new ArrayList<>();
        while (header.find()) {
            int number = Integer.parseInt(header.group(1));
            if (number != blocks.size() + 1) {
                throw new TlaValueParser.ParseException("expected STATE_" + (blocks.size() + 1) + ", found STATE_" + number,
                        header.start());
            }
            blocks.add(new int[] {header.end(), -1});
        }
        if (blocks.isEmpty()) {
            throw new TlaValueParser.ParseException("no STATE_1 == block: not a TLC behaviour file", 0);
        }
        Matcher end = MODULE_END.matcher(text);
        int moduleEnd = end.find(blocks.getLast()[0]) ? end.start() : text.length();
        List<State> states = new ArrayList<>();
        for (int i = 0; i < blocks.size(); i++) {
            int to = i + 1 < blocks.size() ? lineStartOfNextHeader(text, blocks.get(i + 1)[0]) : moduleEnd;
            states.add(parseState(text, blocks.get(i)[0], to));
        }
        return states;
    }

    private static int lineStartOfNextHeader(String text, int headerEnd) {
        return text.lastIndexOf("STATE_", headerEnd);
    }

    private static int skipSpace(String text, int pos, int to) {
        while (pos < to && Character.isWhitespace(text.charAt(pos))) {
            pos++;
        }
        return pos;
    }
}
