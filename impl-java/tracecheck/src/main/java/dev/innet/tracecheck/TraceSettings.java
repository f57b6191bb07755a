package dev.innet.tracecheck;

/**
 * What a converter needs to know about the rack that produced a run and cannot read from its events.
 *
 * @param clientLinkNanos the delay of the clients' (clean, fixed-delay) links to the switch: a client event
 *                        is placed where the switch saw it
 * @param cacheSize       the rack's cache capacity, or null for "as many slots as keys" (never limiting)
 */
public record TraceSettings(long clientLinkNanos, Integer cacheSize) {
    /** LinkFaults.CLEAN, the rack's client links: a fixed 1 us. */
    public static final long DEFAULT_CLIENT_LINK_NANOS = 1_000;

    public TraceSettings {
        if (clientLinkNanos < 0 || (cacheSize != null && cacheSize < 1)) {
            throw new IllegalArgumentException("client link delay must be >= 0 and cache size >= 1");
        }
    }

    public static TraceSettings rack(Integer cacheSize) {
        return new TraceSettings(DEFAULT_CLIENT_LINK_NANOS, cacheSize);
    }
}
