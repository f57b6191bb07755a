package dev.innet.p4sim.coverage;

/**
 * One thing a P4 program can do that a test may or may not make it do: a table hit or miss, an action
 * run, or one outcome of a branch ({@code if} true or false, a {@code switch} case, a parser
 * {@code select} case). {@code name} says which table, action or kind of branch (with the control or
 * parser it is in); {@code outcome} which of its outcomes; {@code text} is the source line.
 * {@code registerGuard}: a branch whose condition reads a value that came from a register, or whose
 * outcomes guard a register write: the program's protocol decisions (sequence numbers, record state).
 */
public record CoveragePoint(Kind kind, String file, int line, int col, String name, String outcome, String text,
                            boolean registerGuard) {
    public enum Kind { TABLE, ACTION, BRANCH }

    /** Identifies the point across switch instances of one program (what merging matches on). */
    public String key() {
        return kind + " " + file + ":" + line + ":" + col + " " + name + " " + outcome;
    }

    /** {@code file:line} */
    public String location() {
        return file + ":" + line;
    }

    /** The kind as a report names it: table, action, branch or register guard. */
    public String kindLabel() {
        return switch (kind) {
            case TABLE -> "table";
            case ACTION -> "action";
            case BRANCH -> registerGuard ? "register guard" : "branch";
        };
    }

    /** One line for a report: where, what, which outcome, and the source line. */
    public String describe() {
        return location() + "  " + kindLabel() + "  " + name + " " + outcome + (text.isEmpty() ? "" : "  | " + text);
    }
}
