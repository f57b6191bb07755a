package dev.innet.lake;

/**
 * LaKe's latencies as the paper measured them on NetFPGA-SUME (Tokusashi et al., ReConFig 2018, §IV-B,
 * a DAG card's isolated device latency): one source for the simulator's switch timing
 * ({@link LakeProtocol#switchMemoryNanos}) and the benchmark's queueing model.
 */
public final class PaperLatency {
    /** A GET answered from the on-chip shared cache (the first layer): 1.16 µs. */
    public static final long L1_HIT_NANOS = 1_160;
    /** A GET that misses the on-chip cache and is answered from the DRAM (the second layer): 5.6 µs. */
    public static final long L2_HIT_NANOS = 5_600;
    /** A host round trip through memcached, 205x the hit latency (238 µs). */
    public static final long MEMCACHED_NANOS = L1_HIT_NANOS * 205;

    private PaperLatency() {}
}
