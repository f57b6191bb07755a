package dev.innet.switchapi;

import java.math.BigInteger;

/** How one key field of a table entry matches (P4Runtime's FieldMatch). */
public sealed interface Match {
    /** exact key; also allowed for ternary (all-ones mask), lpm (full prefix), range (lo = hi), optional. */
    record Exact(BigInteger value) implements Match { }

    record Ternary(BigInteger value, BigInteger mask) implements Match { }

    record Lpm(BigInteger value, int prefixLength) implements Match { }

    record Range(BigInteger lo, BigInteger hi) implements Match { }

    /** Matches any value: allowed for ternary, lpm, range and optional keys. */
    record Wildcard() implements Match { }

    static Match exact(long v) {
        return new Exact(BigInteger.valueOf(v));
    }

    static Match ternary(long v, long mask) {
        return new Ternary(BigInteger.valueOf(v), BigInteger.valueOf(mask));
    }

    static Match lpm(long v, int prefix) {
        return new Lpm(BigInteger.valueOf(v), prefix);
    }

    static Match range(long lo, long hi) {
        return new Range(BigInteger.valueOf(lo), BigInteger.valueOf(hi));
    }
}
