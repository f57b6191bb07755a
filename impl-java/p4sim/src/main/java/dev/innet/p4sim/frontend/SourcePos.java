package dev.innet.p4sim.frontend;

/** A position in a P4 source file: every token and AST node carries one, so every error names file:line:col. */
public record SourcePos(String file, int line, int col) {
    public static final SourcePos BUILTIN = new SourcePos("<builtin>", 0, 0);

    @Override
    public String toString() {
        return file + ":" + line + ":" + col;
    }
}
