package dev.innet.p4sim.frontend;

/**
 * One lexical token. {@code adjacentNext} records that the next token follows with no whitespace,
 * which the parser needs to read {@code >>} as a shift but {@code bit<8>>} as two closing brackets.
 */
public record Token(Kind kind, String text, SourcePos pos, boolean adjacentNext) {
    public enum Kind { IDENT, INT, STRING, PUNCT, EOF }

    public boolean is(String s) {
        return (kind == Kind.PUNCT || kind == Kind.IDENT) && text.equals(s);
    }

    @Override
    public String toString() {
        return kind == Kind.EOF ? "end of file" : "'" + text + "'";
    }
}
