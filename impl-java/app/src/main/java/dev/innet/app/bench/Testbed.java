package dev.innet.app.bench;

/**
 * The constants of the cost model: what each station of the FarReach paper's testbed (§5.1) costs. Where a
 * constant comes from is in docs/benchmarks.md ("Constants"), section and figure of the paper; the ones the
 * papers do not state are marked there as assumptions and only move latencies, not saturation throughput.
 *
 * @param storageOpSeconds a server's time per request that touches RocksDB (read, write, eviction store)
 * @param controlMessageSeconds a server's time per received message that does not touch storage
 * @param sentMessageSeconds a server's time per message it originates (a hot report), replies excluded
 * @param pipelines switch pipelines; client machine m and server s enter pipeline m and s modulo this
 * @param pipelinePacketsPerSecond packets one pipeline processes per second
 * @param snapshotRecirculatedWriteFraction the share of writes from non-selected pipelines recirculated for
 *        snapshot triggering (recirculation window / snapshot period)
 * @param clientMachines machines the clients run on
 * @param clientMachineOpsPerSecond operations one client machine issues and completes per second
 * @param linkBitsPerSecond every NIC's bandwidth, each direction
 * @param frameOverheadBytes bytes a frame occupies on the wire beyond its own (preamble, gap, FCS)
 * @param hostStackSeconds one pass through a host's network stack (latency only)
 * @param switchTraversalSeconds one pass through the switch, port to port (latency only)
 */
public record Testbed(double storageOpSeconds, double controlMessageSeconds, double sentMessageSeconds, int pipelines,
        double pipelinePacketsPerSecond, double snapshotRecirculatedWriteFraction, int clientMachines,
        double clientMachineOpsPerSecond, double linkBitsPerSecond, int frameOverheadBytes, double hostStackSeconds,
        double switchTraversalSeconds) {

    /** The FarReach paper's testbed (ATC'23 §5.1), constants derived in docs/benchmarks.md. */
    public static Testbed farReachPaper() {
        return new Testbed(
                1 / 60_000.0,            // Exp#1: "load throughput to a RocksDB instance can reach 0.06 MOPS"
                1 / 600_000.0,           // assumption: a tenth of a storage operation
                1 / 600_000.0,           // assumption: a tenth of a storage operation
                2,                       // §5.1: "a 3.2 Tbps two-pipeline Tofino switch"
                1.6e12 / ((64 + 20) * 8),// §5.1: 3.2 Tbps over 2 pipelines, minimum-size frames (64 B + 20 B gap)
                0.006 / 10.0,            // §3.4: recirculation "≈ 6 ms" per snapshot; §5.1: "snapshot period as 10 s"
                2,                       // §5.1: "two physical machines as clients"
                12.1e6 / 2,              // §3.2: "up to 12.1 [M ops/s] under 128 simulated servers": each client machine
                                         //       sustained at least half of it
                40e9,                    // §5.1: "40 Gbps NIC (Intel XL710)"
                24,                      // Ethernet: 8 B preamble, 12 B inter-frame gap, 4 B FCS
                5e-6,                    // assumption: a kernel UDP send or receive
                1e-6);                   // assumption: Tofino port to port
    }

    /**
     * The Pegasus paper's testbed (OSDI'20 §9), constants derived in docs/benchmarks.md ("Pegasus"). The paper
     * states its hardware and its latency SLO but no per-server rate: the server time is an assumption
     * sized so that the unloaded median latency is the 10 us its SLO implies (50 us = 5x the median, §9.1).
     */
    public static Testbed pegasusPaper() {
        return new Testbed(
                5e-6,                    // assumption: an in-memory DPDK server's time per request (unloaded median
                                         //   latency then 10 us, §9.1: SLO 50 us "5x of the median unloaded latency")
                0.5e-6,                  // assumption: a tenth of a request
                0.5e-6,                  // assumption: a tenth of a request
                4,                       // Arista 7170-64S (§9): Tofino 6.4 Tbps; 4 pipelines (datasheet, not the paper)
                1.6e12 / ((64 + 20) * 8),// 6.4 Tbps over 4 pipelines, minimum-size frames (64 B + 20 B gap)
                0,                       // no snapshots
                12,                      // §9: "16 nodes act as key-value servers and 12 generate client load"
                5e6,                     // assumption: a DPDK client machine issues 5 M requests per second
                25e9,                    // §9: "Mellanox ConnectX-4 25 Gbit NICs"
                24,                      // Ethernet: 8 B preamble, 12 B inter-frame gap, 4 B FCS
                1e-6,                    // assumption: a DPDK send or receive
                1e-6);                   // assumption: Tofino port to port
    }

    public Testbed withClientMachineOpsPerSecond(double rate) {
        return new Testbed(storageOpSeconds, controlMessageSeconds, sentMessageSeconds, pipelines,
                pipelinePacketsPerSecond, snapshotRecirculatedWriteFraction, clientMachines, rate, linkBitsPerSecond,
                frameOverheadBytes, hostStackSeconds, switchTraversalSeconds);
    }
}
