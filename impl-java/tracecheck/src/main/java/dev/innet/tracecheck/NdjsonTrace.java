package dev.innet.tracecheck;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads a run's trace events: one flat JSON object a line, values strings, integers or booleans (what
 * {@code TraceEvent.toJsonLine} writes). Anything else is refused with the line number.
 */
public final class NdjsonTrace {
    private NdjsonTrace() {}

    public static List<TraceLine> read(Path file) throws IOException {
        List<String> lines = Files.readAllLines(file);
        List<TraceLine> out = new ArrayList<>(lines.size());
        for (int i = 0; i < lines.size(); i++) {
            if (!lines.get(i).isBlank()) {
                out.add(parse(i + 1, lines.get(i)));
            }
        }
        return out;
    }

    /** One line of a run (its number {@code lineNo}, 1-based, for messages). */
    public static TraceLine parse(int lineNo, String text) {
        Map<String, Object> fields = new Parser(lineNo, text).object();
        Object time = fields.remove("time");
        Object host = fields.remove("host");
        Object incarnation = fields.remove("incarnation");
        Object event = fields.remove("event");
        if (!(time instanceof Long t) || !(host instanceof Long h) || !(incarnation instanceof Long inc)
                || !(event instanceof String e)) {
            throw new TraceFormatException("line " + lineNo + ": needs integer time, host and incarnation and a string event");
        }
        return new TraceLine(lineNo, t, Math.toIntExact(h), Math.toIntExact(inc), e, fields);
    }

    /** A parser for exactly one flat JSON object. */
    private static final class Parser {
        private final int lineNo;
        private final String s;
        private int i;

        Parser(int lineNo, String s) {
            this.lineNo = lineNo;
            this.s = s;
        }

        Map<String, Object> object() {
            Map<String, Object> m = new LinkedHashMap<>();
            skip();
            expect('{');
            skip();
            if (peek() == '}') {
                i++;
            } else {
                while (true) {
                    skip();
                    String key = string();
                    skip();
                    expect(':');
                    skip();
                    if (m.put(key, value()) != null) {
                        throw fail("field '" + key + "' given twice");
                    }
                    skip();
                    char c = next();
                    if (c == '}') {
                        break;
                    }
                    if (c != ',') {
                        throw fail("expected ',' or '}'");
                    }
                }
            }
            skip();
            if (i != s.length()) {
                throw fail("text after the object");
            }
            return m;
        }

        private Object value() {
            char c = peek();
            if (c == '"') {
                return string();
            }
            if (s.startsWith("true", i)) {
                i += 4;
                return Boolean.TRUE;
            }
            if (s.startsWith("false", i)) {
                i += 5;
                return Boolean.FALSE;
            }
            int start = i;
            if (c == '-') {
                i++;
            }
            while (i < s.length() && Character.isDigit(s.charAt(i))) {
                i++;
            }
            if (i == start || (i == start + 1 && c == '-')) {
                throw fail("expected a string, an integer or a boolean");
            }
            try {
                return Long.parseLong(s.substring(start, i));
            } catch (NumberFormatException e) {
                throw fail("integer out of range");
            }
        }

        private String string() {
            expect('"');
            StringBuilder b = new StringBuilder();
            while (true) {
                char c = next();
                if (c == '"') {
                    return b.toString();
                }
                if (c != '\\') {
                    b.append(c);
                    continue;
                }
                char esc = next();
                switch (esc) {
                    case '"', '\\', '/' -> b.append(esc);
                    case 'n' -> b.append('\n');
                    case 'r' -> b.append('\r');
                    case 't' -> b.append('\t');
                    case 'b' -> b.append('\b');
                    case 'f' -> b.append('\f');
                    case 'u' -> {
                        if (i + 4 > s.length()) {
                            throw fail("short \\u escape");
                        }
                        b.append((char) Integer.parseInt(s.substring(i, i + 4), 16));
                        i += 4;
                    }
                    default -> throw fail("bad escape \\" + esc);
                }
            }
        }

        private void skip() {
            while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
                i++;
            }
        }

        private char peek() {
            if (i >= s.length()) {
                throw fail("unexpected end of line");
            }
            return s.charAt(i);
        }

        private char next() {
            char c = peek();
            i++;
            return c;
        }

        private void expect(char c) {
            if (next() != c) {
                throw fail("expected '" + c + "'");
            }
        }

        private TraceFormatException fail(String why) {
            return new TraceFormatException("line " + lineNo + ", column " + (i + 1) + ": " + why);
        }
    }
}
