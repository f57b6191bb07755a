package dev.innet.rack;

import dev.innet.rack.workload.Workload;
import dev.innet.sim.simulated.LinkFaults;

/**
 * The shape of a simulated campaign run: a rack whose cache is much smaller than its hot set, counters
 * reset often and a low hot threshold (so admissions and evictions keep racing reads and writes), with
 * faulty links between the switch and the servers and, in {@link #sim()}, between the switch and the
 * clients. {@link #ci()} is what ./innet test runs per seed; {@link #sim()} is plain ./innet sim.
 */
public record CampaignSettings(int servers, int clients, int cacheCapacity, Workload workload, int hotThreshold,
        long counterResetNanos, long chaosNanos, long quietNanos, long controlStepNanos, LinkFaults serverLinkFaults,
        LinkFaults clientLinkFaults, boolean clientReplyLoss) {

    /** 5% loss, 5% duplication, 1-30 us delay, 10% of packets held back 50 us (reordering). */
    public static final LinkFaults LOSSY = LinkFaults.fixedDelay(2_000).withDrop(0.05).withDuplicate(0.05)
            .withDelay(1_000, 30_000).withReorder(0.1, 50_000);

    /**
     * Client<->switch links in ./innet sim: 2% loss, 2% duplication, 1-10 us delay, 5% held back 20 us. Lower
     * than the server links' rates because every lost request or reply costs its client a 500 us timeout.
     * Applied to requests and replies alike; {@code withClientReplyLoss(false)} keeps replies from being
     * lost (a lost reply to a write the switch absorbed leaves that write unpreserved until the client's
     * retry is answered: docs/farreach.md, "Limits").
     */
    public static final LinkFaults CLIENT_LOSSY = LinkFaults.fixedDelay(1_000).withDrop(0.02).withDuplicate(0.02)
            .withDelay(1_000, 10_000).withReorder(0.05, 20_000);

    /**
     * Value lengths of ./innet sim's workload: 1..160 bytes drawn per write (a ~10-byte unique prefix is the
     * floor): every word count the cache holds, and about a fifth too long to cache (FR-9).
     */
    public static final int SIM_MIN_VALUE_BYTES = 1;
    public static final int SIM_MAX_VALUE_BYTES = 160;

    /** Clean client links. */
    public CampaignSettings(int servers, int clients, int cacheCapacity, Workload workload, int hotThreshold,
            long counterResetNanos, long chaosNanos, long quietNanos, long controlStepNanos, LinkFaults serverLinkFaults) {
        this(servers, clients, cacheCapacity, workload, hotThreshold, counterResetNanos, chaosNanos, quietNanos,
                controlStepNanos, serverLinkFaults, LinkFaults.CLEAN, false);
    }

    public static CampaignSettings ci() {
        return new CampaignSettings(2, 4, 8, new Workload(48, 0.9, 0.5, 0.05, 16, 0), 3, 4_000_000, 30_000_000,
                30_000_000, 20_000, LOSSY);
    }

    /**
     * Plain ./innet sim: {@link #ci()} with 100 ms of chaos, faulty client links and values of many lengths
     * (2..16 words, and some too long to cache). Crashes are the protocol's business ({@link CrashPlan}).
     */
    public static CampaignSettings sim() {
        CampaignSettings ci = ci();
        return ci.withChaosNanos(100_000_000).withClientFaults(CLIENT_LOSSY).withClientReplyLoss(true)
                .withWorkload(ci.workload().withValueLengths(SIM_MIN_VALUE_BYTES, SIM_MAX_VALUE_BYTES));
    }

    public CampaignSettings withChaosNanos(long n) {
        return new CampaignSettings(servers, clients, cacheCapacity, workload, hotThreshold, counterResetNanos, n,
                quietNanos, controlStepNanos, serverLinkFaults, clientLinkFaults, clientReplyLoss);
    }

    public CampaignSettings withWorkload(Workload w) {
        return new CampaignSettings(servers, clients, cacheCapacity, w, hotThreshold, counterResetNanos, chaosNanos,
                quietNanos, controlStepNanos, serverLinkFaults, clientLinkFaults, clientReplyLoss);
    }

    public CampaignSettings withRack(int newServers, int newClients, int newCache) {
        return new CampaignSettings(newServers, newClients, newCache, workload, hotThreshold, counterResetNanos,
                chaosNanos, quietNanos, controlStepNanos, serverLinkFaults, clientLinkFaults, clientReplyLoss);
    }

    public CampaignSettings withFaults(LinkFaults f) {
        return new CampaignSettings(servers, clients, cacheCapacity, workload, hotThreshold, counterResetNanos,
                chaosNanos, quietNanos, controlStepNanos, f, clientLinkFaults, clientReplyLoss);
    }

    public CampaignSettings withClientFaults(LinkFaults f) {
        return new CampaignSettings(servers, clients, cacheCapacity, workload, hotThreshold, counterResetNanos,
                chaosNanos, quietNanos, controlStepNanos, serverLinkFaults, f, clientReplyLoss);
    }

    /** Whether client link faults lose replies too, not only requests (see {@link #CLIENT_LOSSY}). */
    public CampaignSettings withClientReplyLoss(boolean on) {
        return new CampaignSettings(servers, clients, cacheCapacity, workload, hotThreshold, counterResetNanos,
                chaosNanos, quietNanos, controlStepNanos, serverLinkFaults, clientLinkFaults, on);
    }

    public CampaignSettings withControlStepNanos(long n) {
        return new CampaignSettings(servers, clients, cacheCapacity, workload, hotThreshold, counterResetNanos,
                chaosNanos, quietNanos, n, serverLinkFaults, clientLinkFaults, clientReplyLoss);
    }

    /** A rack of {@code protocol} with these settings; without duplication if the protocol does not tolerate it. */
    public Rack.Builder rack(java.nio.file.Path root, dev.innet.protocol.Protocol protocol, long seed) {
        return Rack.builder(root, seed).protocol(protocol).servers(servers).clients(clients).cacheCapacity(cacheCapacity)
                .workload(workload).hotThreshold(hotThreshold).counterResetNanos(counterResetNanos)
                .chaosNanos(chaosNanos).quietNanos(quietNanos).controlStepNanos(controlStepNanos)
                .serverLinkFaults(faultsFor(protocol))
                .clientLinkFaults(clientFaultsFor(protocol), clientReplyLoss ? clientFaultsFor(protocol)
                        : clientFaultsFor(protocol).withDrop(0));
    }

    /** The link faults a campaign of {@code protocol} gets: these, minus duplication if it cannot tolerate it. */
    public LinkFaults faultsFor(dev.innet.protocol.Protocol protocol) {
        return protocol.toleratesDuplicatedPackets() ? serverLinkFaults : serverLinkFaults.withDuplicate(0);
    }

    /** The same for the client links. */
    private LinkFaults clientFaultsFor(dev.innet.protocol.Protocol protocol) {
        return protocol.toleratesDuplicatedPackets() ? clientLinkFaults : clientLinkFaults.withDuplicate(0);
    }
}
