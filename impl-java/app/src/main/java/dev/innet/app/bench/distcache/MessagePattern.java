package dev.innet.app.bench.distcache;

import dev.innet.app.bench.BenchWorkload;
import dev.innet.app.bench.RackRunner;
import dev.innet.app.bench.RunObservation;
import dev.innet.app.bench.RunObservation.HostTraffic;
import dev.innet.distcache.DistCacheProtocol;
import dev.innet.distcache.wire.DcOp;

/**
 * What each operation of the real DistCache costs, measured on a simulated network (p4/distcache.p4 on one
 * p4sim per switch: spines, storage-rack leaves and the client ToR, with the real servers, clients and
 * controller): the share of reads a cache switch answered, and per write the coherence messages the key's
 * server exchanged (INV sent, INV_ACK received, UPD sent). The cost model prices these counts.
 *
 * @param reads reads in the measured window
 * @param writes writes in the measured window
 * @param switchAnswered operations a cache switch answered
 * @param invalidations INV frames servers sent
 * @param acknowledgements INV_ACK frames servers received
 * @param updates UPD frames servers sent (phase 2 and insertion fills)
 * @param inserted FETCH frames servers received: insertions the controller made in the window
 */
public record MessagePattern(String workload, long reads, long writes, long switchAnswered, long invalidations,
        long acknowledgements, long updates, long inserted, String detail) {

    /**
     * Runs DistCache on {@code spines} x {@code leaves} switches and {@code servers} servers.
     *
     * @param cache the controller's capacity per cache switch is {@code cache x (spines + leaves)} (it inserts
     *        hot keys at run time from the switches' reports); that many hottest keys are written first
     */
    public static MessagePattern measure(RackRunner runner, BenchWorkload w, int spines, int leaves, int servers,
            int cache, long ops) {
        // the preloaded hot set is every switch's capacity: the controller places it over both layers
        int cached = cache * (spines + leaves);
        RunObservation run = runner.run(new DistCacheProtocol().withNetwork(spines, leaves), w, servers, cached, ops,
                RackRunner.CLIENTS, Math.max(1, ops / 2), b -> b);
        long inv = 0;
        long ack = 0;
        long upd = 0;
        for (HostTraffic h : run.serverTraffic()) {
            inv += h.sent(DcOp.INV);
            ack += h.received(DcOp.INV_ACK);
            upd += h.sent(DcOp.UPD);
        }
        long fetch = run.serverTraffic().stream().mapToLong(h -> h.received(DcOp.FETCH)).sum();
        return new MessagePattern(w.name(), run.reads(), run.writes(), run.switchAnswered(), inv, ack, upd, fetch,
                run.describe());
    }

    /** The share of reads a cache switch answered. */
    public double readHitRatio() {
        return reads == 0 ? 0 : switchAnswered / (double) reads;
    }

    /**
     * Copies invalidated per write. The server does not know which keys are cached, so every write runs the
     * two-phase update over both layers' possible copies (about 2; more with resends).
     */
    public double invalidationsPerWrite() {
        return writes == 0 ? 0 : invalidations / (double) writes;
    }

    /** Coherence messages the server handled (sent or received) per copy of a cached key it updated. */
    public double messagesPerCopy() {
        return invalidations == 0 ? 0 : (invalidations + acknowledgements + updates) / (double) invalidations;
    }
}
