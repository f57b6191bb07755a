package dev.innet.p4sim.stf;

/**
 * A line of an STF script that cannot be understood: an unknown command, bad syntax, or a table,
 * action, key or parameter name the program does not have. It makes the script bad input (exit 2 of
 * {@code ./innet stf}), not a failed test.
 */
public final class StfFormatException extends IllegalArgumentException {
    public StfFormatException(String message) {
        super(message);
    }
}
