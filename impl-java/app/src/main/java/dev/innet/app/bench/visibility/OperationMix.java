package dev.innet.app.bench.visibility;

import dev.innet.app.bench.RunObservation;
import dev.innet.app.bench.RunObservation.HostTraffic;
import dev.innet.visibility.wire.VisOp;

/**
 * What the real implementation did per operation in a rack run's measured window, counted by the switch
 * at the metadata node's and the data nodes' ports: which writes the switch made visible (each clone of
 * one is a {@code META_ASYNC} at the metadata node), which took the ordered second phase
 * ({@code META_UPDATE}), which reads the switch answered, and the control traffic (clears, their acks,
 * held replies) the metadata node handled.
 *
 * @param writeShare writes among the operations
 * @param acceleratedWrites writes made visible by the switch, per write
 * @param orderedUpdates second-phase updates the metadata node received, per write
 * @param readsAtMetadata reads the metadata node answered, per read (the rest the switch answered)
 * @param dataReadsPerRead data-node reads per read (below 1: reads of keys never written need none)
 * @param dataWritesPerWrite log appends requested per write (above 1: retries)
 * @param controlPerAcceleratedWrite clears sent, clear acks and held replies received at the metadata node,
 *        per accelerated write
 */
record OperationMix(double writeShare, double acceleratedWrites, double orderedUpdates, double readsAtMetadata,
        double dataReadsPerRead, double dataWritesPerWrite, double controlPerAcceleratedWrite, long operations) {

    /** The mix of a run whose first server is the metadata node and whose other servers are data nodes. */
    static OperationMix of(RunObservation run) {
        if (run.operations() < 1 || run.serverTraffic().size() < 2) {
            throw new IllegalArgumentException("a visibility run needs operations, a metadata node and a data node");
        }
        HostTraffic metadata = run.serverTraffic().get(0);
        long dataWrites = 0;
        long dataReads = 0;
        for (HostTraffic data : run.serverTraffic().subList(1, run.serverTraffic().size())) {
            dataWrites += data.received(VisOp.WRITE);
            dataReads += data.received(VisOp.DATA_READ);
        }
        double writes = Math.max(1, run.writes());
        double reads = Math.max(1, run.reads());
        long async = metadata.received(VisOp.META_ASYNC);
        long control = metadata.sent(VisOp.CLEAR) + metadata.received(VisOp.CLEAR_ACK) + metadata.received(VisOp.META_HELD);
        return new OperationMix(run.writes() / (double) (run.writes() + run.reads()), Math.min(1, async / writes),
                metadata.received(VisOp.META_UPDATE) / writes, Math.min(1, metadata.received(VisOp.READ) / reads),
                Math.min(1, dataReads / reads), dataWrites / writes, async == 0 ? 0 : control / (double) async,
                run.operations());
    }

    String describe() {
        String writes = String.format("writes %.0f%%: %.1f%% visible in the switch, %.3f second phases per write, %.3f"
                + " appends per write, %.2f control messages per visible write", 100 * writeShare, 100 * acceleratedWrites,
                orderedUpdates, dataWritesPerWrite, controlPerAcceleratedWrite);
        String reads = writeShare == 1 ? "no reads" : String.format("reads: %.1f%% answered by the switch, %.2f data reads"
                + " per read", 100 * (1 - readsAtMetadata), dataReadsPerRead);
        return writes + "; " + reads + " (" + operations + " ops)";
    }
}
