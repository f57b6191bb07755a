package dev.innet.app.bench.distcache;

/**
 * The DistCache paper's emulated testbed (FAST'19 §6.1), the constants of {@link DistCacheModel}. Throughput
 * is reported as the paper does: normalised to one emulated storage server's throughput.
 *
 * @param serversPerRack storage servers in one rack (§6.2: "Each rack contains 32 servers")
 * @param objectsPerSwitch objects each cache switch holds (§6.2: "We populate each cache switch with 100 hot
 *        objects")
 * @param keys objects in the store (§6.1: "We store a total of 100 million objects")
 * @param cacheNodeCapacity one cache switch's throughput in servers' throughputs (§6.1: "we use rate limiting
 *        to match the throughput of each emulated switch to the aggregated throughput of the emulated storage
 *        servers in a rack": = serversPerRack)
 * @param coherenceMessageCost a server's cost of one coherence message (INV sent, INV_ACK received, UPD sent)
 *        in requests: an ASSUMPTION (the paper does not state it), a tenth of a request as in the FarReach
 *        and Pegasus models' control messages
 * @param switchCoherenceCost a cache switch's cost of one INV or UPD packet in reads: an ASSUMPTION, one read
 *        (the paper's rate limiter counts packets per queue)
 * @param modelledHotKeys keys placed one by one (by hash) in the model; the rest of the zipf mass is spread
 *        evenly over the servers (an approximation: each of those keys is below 1/100,000 of the hottest)
 */
public record DistCacheTestbed(int serversPerRack, int objectsPerSwitch, long keys, double cacheNodeCapacity,
        double coherenceMessageCost, double switchCoherenceCost, int modelledHotKeys) {

    public static DistCacheTestbed paper() {
        return new DistCacheTestbed(32, 100, 100_000_000L, 32, 0.1, 1.0, 200_000);
    }

    public DistCacheTestbed {
        if (serversPerRack < 1 || objectsPerSwitch < 0 || keys < 1 || cacheNodeCapacity <= 0 || coherenceMessageCost < 0
                || switchCoherenceCost < 0 || modelledHotKeys < 1) {
            throw new IllegalArgumentException("testbed constants must be positive");
        }
    }
}
