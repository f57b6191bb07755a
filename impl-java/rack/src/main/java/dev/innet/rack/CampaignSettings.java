package dev.innet.rack;

import dev.innet.rack.workload.Workload;
import dev.innet.sim.simulated.LinkFaults;

/**
 * The shape of a simulated campaign run: a rack whose cache is much smaller than its hot set, counters
 * reset often and a low hot threshold (so admissions and evictions keep racing reads and writes), with
 * faulty links between the switch and the servers. {@link #ci()} is what ./innet test runs per seed.
 */
public record CampaignSettings(int servers, int clients, int cacheCapacity, Workload workload, int hotThreshold,
        long counterResetNanos, long chaosNanos, long quietNanos, long controlStepNanos, LinkFaults serverLinkFaults) {

    /** 5% loss, 5% duplication, 1-30 us delay, 10% of packets held back 50 us (reordering). */
    public static final LinkFaults LOSSY = LinkFaults.fixedDelay(2_000).withDrop(0.05).withDuplicate(0.05)
            .withDelay(1_000, 30_000).withReorder(0.1, 50_000);

    public static CampaignSettings ci() {
        return new CampaignSettings(2, 4, 8, new Workload(48, 0.9, 0.5, 0.05, 16, 0), 3, 4_000_000, 30_000_000,
                30_000_000, 20_000, LOSSY);
    }

    public CampaignSettings withChaosNanos(long n) {
        return new CampaignSettings(servers, clients, cacheCapacity, workload, hotThreshold, counterResetNanos, n,
                quietNanos, controlStepNanos, serverLinkFaults);
    }

    public CampaignSettings withWorkload(Workload w) {
        return new CampaignSettings(servers, clients, cacheCapacity, w, hotThreshold, counterResetNanos, chaosNanos,
                quietNanos, controlStepNanos, serverLinkFaults);
    }

    public CampaignSettings withRack(int newServers, int newClients, int newCache) {
        return new CampaignSettings(newServers, newClients, newCache, workload, hotThreshold, counterResetNanos,
                chaosNanos, quietNanos, controlStepNanos, serverLinkFaults);
    }

    public CampaignSettings withFaults(LinkFaults f) {
        return new CampaignSettings(servers, clients, cacheCapacity, workload, hotThreshold, counterResetNanos,
                chaosNanos, quietNanos, controlStepNanos, f);
    }

    public CampaignSettings withControlStepNanos(long n) {
        return new CampaignSettings(servers, clients, cacheCapacity, workload, hotThreshold, counterResetNanos,
                chaosNanos, quietNanos, n, serverLinkFaults);
    }

    /** A rack of {@code protocol} with these settings; without duplication if the protocol does not tolerate it. */
    public Rack.Builder rack(java.nio.file.Path root, dev.innet.protocol.Protocol protocol, long seed) {
        return Rack.builder(root, seed).protocol(protocol).servers(servers).clients(clients).cacheCapacity(cacheCapacity)
                .workload(workload).hotThreshold(hotThreshold).counterResetNanos(counterResetNanos)
                .chaosNanos(chaosNanos).quietNanos(quietNanos).controlStepNanos(controlStepNanos)
                .serverLinkFaults(faultsFor(protocol));
    }

    /** The link faults a campaign of {@code protocol} gets: these, minus duplication if it cannot tolerate it. */
    public LinkFaults faultsFor(dev.innet.protocol.Protocol protocol) {
        return protocol.toleratesDuplicatedPackets() ? serverLinkFaults : serverLinkFaults.withDuplicate(0);
    }
}
