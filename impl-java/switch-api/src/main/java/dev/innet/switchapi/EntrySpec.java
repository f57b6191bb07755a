package dev.innet.switchapi;

import java.math.BigInteger;
import java.util.List;

/**
 * A table entry as the control plane sees it. {@code priority} matters only for tables with
 * ternary, range or optional keys, where a larger value wins (P4Runtime convention); use 0 otherwise.
 */
public record EntrySpec(String table, List<Match> match, int priority, String action, List<BigInteger> args) {
    public EntrySpec {
        match = List.copyOf(match);
        args = List.copyOf(args);
    }
}
