package dev.innet.tracegen;

import java.util.List;

/** Writes {@link Json}: compact, or indented with short values kept on one line. */
final class JsonWriter {
    private JsonWriter() {}

    /** {@code width < 0}: compact. Otherwise indent by two spaces, keeping what fits in width on a line. */
    static void write(Json json, StringBuilder out, int width, int indent) {
        if (width >= 0) {
            String compact = compact(json);
            if (indent * 2 + compact.length() <= width || !(json instanceof Json.Obj || json instanceof Json.Arr)) {
                out.append(compact);
                return;
            }
        }
        switch (json) {
            case Json.Obj o -> {
                List<Json.Member> members = o.members();
                out.append('{');
                for (int i = 0; i < members.size(); i++) {
                    out.append(i == 0 ? "" : ",");
                    newline(out, width, indent + 1);
                    quote(members.get(i).name(), out);
                    out.append(width >= 0 ? ": " : ":");
                    write(members.get(i).value(), out, width, indent + 1);
                }
                if (!members.isEmpty()) {
                    newline(out, width, indent);
                }
                out.append('}');
            }
            case Json.Arr a -> {
                List<Json> elements = a.elements();
                out.append('[');
                for (int i = 0; i < elements.size(); i++) {
                    out.append(i == 0 ? "" : ",");
                    newline(out, width, indent + 1);
                    write(elements.get(i), out, width, indent + 1);
                }
                if (!elements.isEmpty()) {
                    newline(out, width, indent);
                }
                out.append(']');
            }
            case Json.Str s -> quote(s.value(), out);
            case Json.Num n -> out.append(n.value());
            case Json.Bool b -> out.append(b.value());
            case Json.Null ignored -> out.append("null");
        }
    }

    private static String compact(Json json) {
        StringBuilder out = new StringBuilder();
        write(json, out, -1, 0);
        return out.toString();
    }

    private static void newline(StringBuilder out, int width, int indent) {
        if (width >= 0) {
            out.append('\n').append("  ".repeat(indent));
        }
    }

    static void quote(String s, StringBuilder out) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                case '\b' -> out.append("\\b");
                case '\f' -> out.append("\\f");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }
}
