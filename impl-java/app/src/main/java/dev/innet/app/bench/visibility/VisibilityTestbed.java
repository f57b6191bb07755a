package dev.innet.app.bench.visibility;

/**
 * What each station of the visibility paper's testbed (§V-A) costs; docs/benchmarks.md ("Visibility
 * layer", "Constants") gives each constant's source. The latency figures the paper states are medians at
 * its lowest load (6 outstanding operations; our reading of the low ends of its ranges), so queueing is
 * negligible in them.
 *
 * @param legSeconds one way between a host and the switch, host stack and NIC included
 * @param dataServiceSeconds a data node thread's time per request (install a log entry, read one)
 * @param dataDelaySeconds the rest of a data node's time per request, spent where requests do not queue
 * @param metadataServiceSeconds a metadata node thread's time per critical-path request (index update or lookup)
 * @param metadataDelaySeconds the rest of a metadata node's time per request, where requests do not queue
 * @param deferredUpdateSeconds a metadata node thread's time per asynchronous update applied in a sorted batch
 * @param controlMessageSeconds a metadata node thread's time per control message (a clear sent, its ack,
 *        a held reply), which the paper does not state
 * @param dataNodes data nodes
 * @param metadataNodes metadata nodes
 * @param threadsPerNode polling threads per data or metadata node
 */
record VisibilityTestbed(String name, double legSeconds, double dataServiceSeconds, double dataDelaySeconds,
        double metadataServiceSeconds, double metadataDelaySeconds, double deferredUpdateSeconds,
        double controlMessageSeconds, int dataNodes, int metadataNodes, int threadsPerNode) {

    VisibilityTestbed {
        if (!(legSeconds > 0 && dataServiceSeconds > 0 && metadataServiceSeconds > 0 && deferredUpdateSeconds > 0
                && controlMessageSeconds >= 0 && dataDelaySeconds >= 0 && metadataDelaySeconds >= 0)
                || dataNodes < 1 || metadataNodes < 1 || threadsPerNode < 1) {
            throw new IllegalArgumentException("testbed constants must be positive");
        }
    }

    /** §V-B: baseline write P50 10.1 us, of which the visibility phase 4.9 us (the low ends of both ranges). */
    static final double BASELINE_WRITE_P50 = 10.1e-6;
    static final double VISIBILITY_PHASE_P50 = 4.9e-6;
    /** §V-B (Fig. 7): read P50 10.1 us; reads the switch answered 7.3 us (low ends). */
    static final double READ_P50 = 10.1e-6;
    static final double ACCELERATED_READ_P50 = 7.3e-6;
    /** §V-E2: sorted batches raise metadata update throughput by 4.7% to 13.4%; the middle of the range. */
    static final double BATCHING_GAIN = 1.09;

    static VisibilityTestbed paper() {
        double dataRpc = BASELINE_WRITE_P50 - VISIBILITY_PHASE_P50;          // 5.2 us: the data write phase
        double metadataRpc = VISIBILITY_PHASE_P50;                           // 4.9 us
        double switchRoundTrip = ACCELERATED_READ_P50 - (READ_P50 - metadataRpc); // 7.3 - 5.2 = 2.1 us
        double leg = switchRoundTrip / 2;                                    // host <-> switch, each way
        double metadataService = metadataRpc - 4 * leg;                      // an RPC crosses four legs: 0.7 us
        return new VisibilityTestbed("paper", leg, dataRpc - 4 * leg, 0, metadataService, 0,
                metadataService / BATCHING_GAIN,
                metadataService / 10,  // assumption: a tenth of a request, as bench farreach assumes
                5, 5, 4);              // §V-A 1: 5 data nodes, 5 metadata nodes; §V-A 2: 4 threads each
    }

    /**
     * §V-B: Fig. 6's baseline median write latency stays within 10.1-12.3 us up to 768 outstanding operations,
     * so its nodes were not saturated there. By Little's law a data tier holding at most all 768 of them
     * completes at least 768 / 12.3 us, so a data node thread spends at most {@code threads x 12.3 us / 768}
     * per request (0.32 us on 20 threads); the metadata tier likewise. This what-if keeps each node's
     * zero-load time and moves the rest of it into a delay that does not queue (NIC, polling).
     */
    VisibilityTestbed unsaturatedAt(int outstanding) {
        double bound = dataNodes * threadsPerNode * BASELINE_WRITE_P50_HIGH / outstanding;
        double data = Math.min(dataServiceSeconds, bound);
        double metaBound = metadataNodes * threadsPerNode * BASELINE_WRITE_P50_HIGH / outstanding;
        double meta = Math.min(metadataServiceSeconds, metaBound);
        double scale = meta / metadataServiceSeconds;
        return new VisibilityTestbed(name + ", nodes unsaturated at " + outstanding, legSeconds, data,
                dataDelaySeconds + dataServiceSeconds - data, meta, metadataDelaySeconds + metadataServiceSeconds - meta,
                deferredUpdateSeconds * scale, controlMessageSeconds * scale, dataNodes, metadataNodes, threadsPerNode);
    }

    /** The same testbed with another price of a control message at the metadata node (an assumption). */
    VisibilityTestbed withControlMessageSeconds(double seconds) {
        return new VisibilityTestbed(name + ", control message " + seconds * 1e6 + " us", legSeconds, dataServiceSeconds,
                dataDelaySeconds, metadataServiceSeconds, metadataDelaySeconds, deferredUpdateSeconds, seconds, dataNodes,
                metadataNodes, threadsPerNode);
    }

    /** §V-B: the upper end of the baseline's median write latency over Fig. 6's sweep. */
    static final double BASELINE_WRITE_P50_HIGH = 12.3e-6;
}
