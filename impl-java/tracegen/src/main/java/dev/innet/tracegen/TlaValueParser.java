package dev.innet.tracegen;

import java.util.ArrayList;
import java.util.List;

/**
 * Reads TLA+ values as TLC prints them in states and traces: integers ({@code -3}), {@code TRUE} and
 * {@code FALSE}, strings, model values (bare identifiers), records {@code [a |-> 1]}, functions
 * {@code (k1 :> 0 @@ k2 :> 1)}, sequences {@code <<1, 2>>} and sets {@code {1, 2}}, nested to any depth,
 * with whitespace (newlines included) anywhere between tokens. It reads values, not expressions: an
 * operator, a range {@code 1..3} or a comprehension is an error, reported with its offset.
 */
public final class TlaValueParser {
    /** Malformed value text: the message says what was expected and at which offset. */
    public static final class ParseException extends IllegalArgumentException {
        private final int offset;

        ParseException(String message, int offset) {
            super(message + " at offset " + offset);
            this.offset = offset;
        }

        public int offset() {
            return offset;
        }
    }

    private final String text;
    private int pos;

    private TlaValueParser(String text) {
        this.text = text;
    }

    /** Parses exactly one value; anything but whitespace after it is an error. */
    public static TlaValue parse(String text) {
        TlaValueParser parser = new TlaValueParser(text);
        TlaValue value = parser.value();
        parser.skipSpace();
        if (parser.pos != text.length()) {
            throw parser.error("unexpected text after the value: " + parser.snippet());
        }
        return value;
    }

    /** A value read from the middle of a text, and the offset just after it. */
    record Prefix(TlaValue value, int end) {}

    /** Parses one value starting at {@code from}, leaving what follows it for the caller. */
    static Prefix parsePrefix(String text, int from) {
        TlaValueParser parser = new TlaValueParser(text);
        parser.pos = from;
        TlaValue value = parser.value();
        return new Prefix(value, parser.pos);
    }

    private TlaValue value() {
        skipSpace();
        if (pos >= text.length()) {
            throw error("expected a value, found the end of the text");
        }
        char c = text.charAt(pos);
        if (c == '[') {
            return record();
        }
        if (c == '(') {
            return function();
        }
        if (startsWith("<<")) {
            pos += 2;
            return new TlaValue.Seq(elements(">>", "sequence"));
        }
        if (c == '{') {
            pos++;
            int start = pos;
            List<TlaValue> elements = elements("}", "set");
            try {
                return new TlaValue.TlaSet(elements);
            } catch (IllegalArgumentException e) {
                throw new ParseException(e.getMessage(), start);
            }
        }
        if (c == '"') {
            return new TlaValue.Str(string());
        }
        if (c == '-' || (c >= '0' && c <= '9')) {
            return integer();
        }
        if (TlaSyntax.isIdentifierChar(c)) {
            int start = pos;
            String word = word();
            return switch (word) {
                case "TRUE" -> new TlaValue.Bool(true);
                case "FALSE" -> new TlaValue.Bool(false);
                default -> {
                    if (!TlaSyntax.isIdentifier(word)) {
                        throw new ParseException("not a value: '" + word + "'", start);
                    }
                    yield new TlaValue.ModelValue(word);
                }
            };
        }
        throw error("expected a value, found " + snippet());
    }

    private TlaValue record() {
        int start = pos;
        pos++; // '['
        List<TlaValue.Field> fields = new ArrayList<>();
        while (true) {
            skipSpace();
            int nameAt = pos;
            String name = word();
            if (!TlaSyntax.isIdentifier(name)) {
                throw new ParseException("expected a record field name, found " + snippetAt(nameAt), nameAt);
            }
            expect("|->", "after record field '" + name + "'");
            TlaValue v = value();
            if (fields.stream().anyMatch(f -> f.name().equals(name))) {
                throw new ParseException("duplicate record field '" + name + "'", nameAt);
            }
            fields.add(new TlaValue.Field(name, v));
            skipSpace();
            if (consume(",")) {
                continue;
            }
            if (consume("]")) {
                return new TlaValue.Rec(fields);
            }
            throw error("expected ',' or ']' in the record opened at offset " + start + ", found " + snippet());
        }
    }

    private TlaValue function() {
        int start = pos;
        pos++; // '('
        List<TlaValue.Pair> pairs = new ArrayList<>();
        while (true) {
            int keyAt = pos;
            TlaValue key = value();
            expect(":>", "between a function's argument and its value");
            TlaValue v = value();
            if (pairs.stream().anyMatch(p -> p.key().equals(key))) {
                throw new ParseException("duplicate function argument " + key.toTla(), keyAt);
            }
            pairs.add(new TlaValue.Pair(key, v));
            skipSpace();
            if (consume("@@")) {
                continue;
            }
            if (consume(")")) {
                return new TlaValue.Fn(pairs);
            }
            throw error("expected '@@' or ')' in the function opened at offset " + start + ", found " + snippet());
        }
    }

    private List<TlaValue> elements(String close, String what) {
        int start = pos;
        List<TlaValue> elements = new ArrayList<>();
        skipSpace();
        if (consume(close)) {
            return elements;
        }
        while (true) {
            elements.add(value());
            skipSpace();
            if (consume(",")) {
                continue;
            }
            if (consume(close)) {
                return elements;
            }
            throw error("expected ',' or '" + close + "' in the " + what + " opened before offset " + start
                    + ", found " + snippet());
        }
    }

    private String string() {
        int start = pos;
        pos++; // '"'
        StringBuilder s = new StringBuilder();
        while (pos < text.length()) {
            char c = text.charAt(pos++);
            if (c == '"') {
                return s.toString();
            }
            if (c == '\\') {
                if (pos >= text.length()) {
                    break;
                }
                char e = text.charAt(pos++);
                switch (e) {
                    case '"' -> s.append('"');
                    case '\\' -> s.append('\\');
                    case 'n' -> s.append('\n');
                    case 't' -> s.append('\t');
                    case 'r' -> s.append('\r');
                    case 'f' -> s.append('\f');
                    default -> throw new ParseException("unknown escape '\\" + e + "' in a string", pos - 2);
                }
            } else {
                s.append(c);
            }
        }
        throw new ParseException("string not closed", start);
    }

    private TlaValue integer() {
        int start = pos;
        if (text.charAt(pos) == '-') {
            pos++;
        }
        int digits = pos;
        while (pos < text.length() && Character.isDigit(text.charAt(pos)) && text.charAt(pos) < 128) {
            pos++;
        }
        if (pos == digits) {
            throw new ParseException("expected digits after '-'", start);
        }
        if (pos < text.length() && TlaSyntax.isIdentifierChar(text.charAt(pos))) {
            throw new ParseException("not a number: " + snippetAt(start), start);
        }
        try {
            return new TlaValue.Int(Long.parseLong(text.substring(start, pos)));
        } catch (NumberFormatException e) {
            throw new ParseException("integer out of range: " + text.substring(start, pos), start);
        }
    }

    private String word() {
        int start = pos;
        while (pos < text.length() && TlaSyntax.isIdentifierChar(text.charAt(pos))) {
            pos++;
        }
        return text.substring(start, pos);
    }

    private void expect(String token, String where) {
        skipSpace();
        if (!consume(token)) {
            throw error("expected '" + token + "' " + where + ", found " + snippet());
        }
    }

    private boolean consume(String token) {
        if (startsWith(token)) {
            pos += token.length();
            return true;
        }
        return false;
    }

    private boolean startsWith(String token) {
        return text.startsWith(token, pos);
    }

    private void skipSpace() {
        while (pos < text.length() && Character.isWhitespace(text.charAt(pos))) {
            pos++;
        }
    }

    private ParseException error(String message) {
        return new ParseException(message, pos);
    }

    private String snippet() {
        return snippetAt(pos);
    }

    private String snippetAt(int at) {
        if (at >= text.length()) {
            return "the end of the text";
        }
        int end = Math.min(text.length(), at + 20);
        return "'" + text.substring(at, end).replace("\n", "\\n") + (end < text.length() ? "...'" : "'");
    }
}
