package dev.innet.p4sim.frontend;

/**
 * A P4 program that p4sim cannot accept: a syntax error, a type error, or a construct p4sim does not
 * support. The message always starts with {@code file:line:col: error: } so tools can point at it.
 */
public final class CompileError extends RuntimeException {
    private final SourcePos pos;
    private final String detail;

    public CompileError(SourcePos pos, String detail) {
        super(pos + ": error: " + detail);
        this.pos = pos;
        this.detail = detail;
    }

    public SourcePos pos() {
        return pos;
    }

    public String detail() {
        return detail;
    }

    public static CompileError unsupported(SourcePos pos, String construct) {
        return new CompileError(pos, "unsupported construct: " + construct + " (not implemented by p4sim)");
    }
}
