package dev.innet.tracegen;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;

/** Reads JSON text (RFC 8259) into {@link Json}; integers only. Errors name the offset. */
final class JsonParser {
    private final String text;
    private int pos;

    private JsonParser(String text) {
        this.text = text;
    }

    static Json parse(String text) {
        JsonParser p = new JsonParser(text);
        Json value = p.value();
        p.skipSpace();
        if (p.pos != text.length()) {
            throw p.error("unexpected text after the JSON value");
        }
        return value;
    }

    private Json value() {
        skipSpace();
        if (pos >= text.length()) {
            throw error("expected a JSON value, found the end of the text");
        }
        char c = text.charAt(pos);
        switch (c) {
            case '{' -> {
                return object();
            }
            case '[' -> {
                return array();
            }
            case '"' -> {
                return new Json.Str(string());
            }
            case 't' -> {
                literal("true");
                return new Json.Bool(true);
            }
            case 'f' -> {
                literal("false");
                return new Json.Bool(false);
            }
            case 'n' -> {
                literal("null");
                return new Json.Null();
            }
            default -> {
                if (c == '-' || (c >= '0' && c <= '9')) {
                    return number();
                }
                throw error("expected a JSON value, found '" + c + "'");
            }
        }
    }

    private Json.Obj object() {
        pos++;
        List<Json.Member> members = new ArrayList<>();
        skipSpace();
        if (consume('}')) {
            return new Json.Obj(members);
        }
        while (true) {
            skipSpace();
            if (pos >= text.length() || text.charAt(pos) != '"') {
                throw error("expected a member name in quotes");
            }
            int nameAt = pos;
            String name = string();
            if (members.stream().anyMatch(m -> m.name().equals(name))) {
                throw new Json.JsonException("duplicate member \"" + name + "\" at offset " + nameAt);
            }
            skipSpace();
            if (!consume(':')) {
                throw error("expected ':' after member \"" + name + "\"");
            }
            members.add(new Json.Member(name, value()));
            skipSpace();
            if (consume(',')) {
                continue;
            }
            if (consume('}')) {
                return new Json.Obj(members);
            }
            throw error("expected ',' or '}' in an object");
        }
    }

    private Json.Arr array() {
        pos++;
        List<Json> elements = new ArrayList<>();
        skipSpace();
        if (consume(']')) {
            return new Json.Arr(elements);
        }
        while (true) {
            elements.add(value());
            skipSpace();
            if (consume(',')) {
                continue;
            }
            if (consume(']')) {
                return new Json.Arr(elements);
            }
            throw error("expected ',' or ']' in an array");
        }
    }

    private String string() {
        int start = pos;
        pos++;
        StringBuilder s = new StringBuilder();
        while (pos < text.length()) {
            char c = text.charAt(pos++);
            if (c == '"') {
                return s.toString();
            }
            if (c < 0x20) {
                throw new Json.JsonException("control character in a string at offset " + (pos - 1));
            }
            if (c != '\\') {
                s.append(c);
                continue;
            }
            if (pos >= text.length()) {
                break;
            }
            char e = text.charAt(pos++);
            switch (e) {
                case '"' -> s.append('"');
                case '\\' -> s.append('\\');
                case '/' -> s.append('/');
                case 'b' -> s.append('\b');
                case 'f' -> s.append('\f');
                case 'n' -> s.append('\n');
                case 'r' -> s.append('\r');
                case 't' -> s.append('\t');
                case 'u' -> {
                    if (pos + 4 > text.length()) {
                        throw new Json.JsonException("short \\u escape at offset " + (pos - 2));
                    }
                    try {
                        s.append((char) Integer.parseInt(text.substring(pos, pos + 4), 16));
                    } catch (NumberFormatException ex) {
                        throw new Json.JsonException("bad \\u escape at offset " + (pos - 2));
                    }
                    pos += 4;
                }
                default -> throw new Json.JsonException("unknown escape '\\" + e + "' at offset " + (pos - 2));
            }
        }
        throw new Json.JsonException("string not closed, opened at offset " + start);
    }

    private Json.Num number() {
        int start = pos;
        if (text.charAt(pos) == '-') {
            pos++;
        }
        int digits = pos;
        while (pos < text.length() && text.charAt(pos) >= '0' && text.charAt(pos) <= '9') {
            pos++;
        }
        if (pos == digits) {
            throw new Json.JsonException("expected digits at offset " + digits);
        }
        if (text.charAt(digits) == '0' && pos - digits > 1) {
            throw new Json.JsonException("leading zero in a number at offset " + start);
        }
        if (pos < text.length() && (text.charAt(pos) == '.' || text.charAt(pos) == 'e' || text.charAt(pos) == 'E')) {
            throw new Json.JsonException("only integers are allowed here, found a fraction or exponent at offset " + start);
        }
        return new Json.Num(new BigInteger(text.substring(start, pos)));
    }

    private void literal(String word) {
        if (!text.startsWith(word, pos)) {
            throw error("expected a JSON value");
        }
        pos += word.length();
    }

    private boolean consume(char c) {
        if (pos < text.length() && text.charAt(pos) == c) {
            pos++;
            return true;
        }
        return false;
    }

    private void skipSpace() {
        while (pos < text.length()) {
            char c = text.charAt(pos);
            if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
                return;
            }
            pos++;
        }
    }

    private Json.JsonException error(String message) {
        return new Json.JsonException(message + " at offset " + pos);
    }
}
