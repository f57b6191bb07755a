package dev.innet.p4sim.runtime;

/** A compiled expression wider than 64 bits: writes its words (least significant first) into {@code dst[off..]}. */
@FunctionalInterface
public interface WExpr {
    void eval(Frame f, long[] dst, int off);
}
