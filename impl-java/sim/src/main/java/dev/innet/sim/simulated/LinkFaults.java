package dev.innet.sim.simulated;

/**
 * The fault policy of one direction of one link, applied to every frame put on it.
 *
 * <p>Each frame is dropped with {@code dropProbability}; otherwise it is delivered once, or twice with
 * {@code duplicateProbability}. Each copy gets its own delay, uniform in {@code [minDelayNanos,
 * maxDelayNanos]}, so frames sent close together overtake each other whenever the range is wider than
 * their spacing. On top of that, with {@code reorderProbability} a copy is held back by up to
 * {@code reorderExtraNanos} more: explicit reordering that even a narrow delay range would not produce.
 */
public record LinkFaults(double dropProbability, double duplicateProbability, long minDelayNanos, long maxDelayNanos,
                         double reorderProbability, long reorderExtraNanos) {
    /** A clean link: nothing lost or duplicated, a fixed small latency (1 microsecond, a rack's order of magnitude). */
    public static final LinkFaults CLEAN = fixedDelay(1_000);

    public LinkFaults {
        requireProbability("dropProbability", dropProbability);
        requireProbability("duplicateProbability", duplicateProbability);
        requireProbability("reorderProbability", reorderProbability);
        if (minDelayNanos < 0) {
            throw new IllegalArgumentException("minDelayNanos must be >= 0: " + minDelayNanos);
        }
        if (maxDelayNanos < minDelayNanos) {
            throw new IllegalArgumentException("maxDelayNanos " + maxDelayNanos + " < minDelayNanos " + minDelayNanos);
        }
        if (reorderExtraNanos < 0) {
            throw new IllegalArgumentException("reorderExtraNanos must be >= 0: " + reorderExtraNanos);
        }
        if (reorderProbability > 0 && reorderExtraNanos == 0) {
            throw new IllegalArgumentException("reorderProbability > 0 needs reorderExtraNanos > 0");
        }
    }

    public static LinkFaults fixedDelay(long delayNanos) {
        return new LinkFaults(0, 0, delayNanos, delayNanos, 0, 0);
    }

    public LinkFaults withDrop(double p) {
        return new LinkFaults(p, duplicateProbability, minDelayNanos, maxDelayNanos, reorderProbability, reorderExtraNanos);
    }

    public LinkFaults withDuplicate(double p) {
        return new LinkFaults(dropProbability, p, minDelayNanos, maxDelayNanos, reorderProbability, reorderExtraNanos);
    }

    public LinkFaults withDelay(long minNanos, long maxNanos) {
        return new LinkFaults(dropProbability, duplicateProbability, minNanos, maxNanos, reorderProbability, reorderExtraNanos);
    }

    public LinkFaults withReorder(double p, long extraNanos) {
        return new LinkFaults(dropProbability, duplicateProbability, minDelayNanos, maxDelayNanos, p, extraNanos);
    }

    public boolean isFaultFree() {
        return dropProbability == 0 && duplicateProbability == 0 && reorderProbability == 0;
    }

    /** One line, every field, for the run header (STYLE.md: print every fault setting). */
    public String describe() {
        return String.format("drop=%.4f dup=%.4f delay=[%d,%d]ns reorder=%.4f(+%dns)", dropProbability,
                duplicateProbability, minDelayNanos, maxDelayNanos, reorderProbability, reorderExtraNanos);
    }

    private static void requireProbability(String name, double p) {
        if (!(p >= 0.0 && p <= 1.0)) {
            throw new IllegalArgumentException(name + " must be in [0,1]: " + p);
        }
    }
}
