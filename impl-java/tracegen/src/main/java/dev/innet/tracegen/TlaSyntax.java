package dev.innet.tracegen;

import java.util.List;
import java.util.Set;

/** TLA+ lexical rules shared by the parser and the printer. */
final class TlaSyntax {
    /** Words that look like identifiers but are not model values in a printed state. */
    static final Set<String> RESERVED = Set.of("TRUE", "FALSE");

    private TlaSyntax() {}

    /** A TLA+ identifier: letters, digits and '_', at least one letter (so "12" is a number, not a name). */
    static boolean isIdentifier(String s) {
        if (s == null || s.isEmpty() || RESERVED.contains(s)) {
            return false;
        }
        boolean letter = false;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (isLetter(c)) {
                letter = true;
            } else if (!(c >= '0' && c <= '9') && c != '_') {
                return false;
            }
        }
        return letter;
    }

    static boolean isLetter(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    }

    static boolean isIdentifierChar(char c) {
        return isLetter(c) || (c >= '0' && c <= '9') || c == '_';
    }

    static void print(TlaValue value, StringBuilder out) {
        switch (value) {
            case TlaValue.Int i -> out.append(i.value());
            case TlaValue.Bool b -> out.append(b.value() ? "TRUE" : "FALSE");
            case TlaValue.Str s -> quote(s.value(), out);
            case TlaValue.ModelValue m -> out.append(m.name());
            case TlaValue.Rec r -> {
                out.append('[');
                List<TlaValue.Field> fields = r.fields();
                for (int i = 0; i < fields.size(); i++) {
                    out.append(i == 0 ? "" : ", ").append(fields.get(i).name()).append(" |-> ");
                    print(fields.get(i).value(), out);
                }
                out.append(']');
            }
            case TlaValue.Fn f -> {
                out.append('(');
                List<TlaValue.Pair> pairs = f.pairs();
                for (int i = 0; i < pairs.size(); i++) {
                    out.append(i == 0 ? "" : " @@ ");
                    print(pairs.get(i).key(), out);
                    out.append(" :> ");
                    print(pairs.get(i).value(), out);
                }
                out.append(')');
            }
            case TlaValue.Seq s -> printList("<<", s.elements(), ">>", out);
            case TlaValue.TlaSet s -> printList("{", s.elements(), "}", out);
        }
    }

    private static void printList(String open, List<TlaValue> elements, String close, StringBuilder out) {
        out.append(open);
        for (int i = 0; i < elements.size(); i++) {
            out.append(i == 0 ? "" : ", ");
            print(elements.get(i), out);
        }
        out.append(close);
    }

    /** A TLA+ string literal: the escapes TLA+ defines (\" \\ \n \t \r \f). */
    static void quote(String s, StringBuilder out) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\t' -> out.append("\\t");
                case '\r' -> out.append("\\r");
                case '\f' -> out.append("\\f");
                default -> out.append(c);
            }
        }
        out.append('"');
    }
}
