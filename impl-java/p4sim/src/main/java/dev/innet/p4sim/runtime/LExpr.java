package dev.innet.p4sim.runtime;

/** A compiled expression of at most 64 bits (bit/int, bool as 0/1, enum and error as their encoding). */
@FunctionalInterface
public interface LExpr {
    long eval(Frame f);
}
