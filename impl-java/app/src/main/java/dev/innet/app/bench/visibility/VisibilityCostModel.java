package dev.innet.app.bench.visibility;

import dev.innet.costmodel.OperationClass;
import dev.innet.costmodel.QueueingNetwork;
import dev.innet.costmodel.Station;
import dev.innet.costmodel.Visit;
import java.util.ArrayList;
import java.util.List;

/**
 * Prices an {@link OperationMix} on the paper's testbed: a queueing network of the data nodes' threads,
 * the metadata nodes' threads (each a pooled FIFO station: keys spread over the nodes) and the network
 * (a delay: every request to a node crosses four host-switch legs). Write classes are named "write ...",
 * so write latency can be reported alone.
 *
 * <ul>
 *   <li>a visible write: one RPC to a data node; the client has its answer then. Left behind: the deferred
 *       update and its clear at the metadata node, at the batched price.</li>
 *   <li>an ordered write: the data node RPC, then the metadata node RPC (the two-phase path).</li>
 *   <li>a read the switch answered: the switch round trip, then the data node RPC.</li>
 *   <li>a read of the index: the metadata node RPC, then the data node RPC.</li>
 * </ul>
 */
final class VisibilityCostModel {
    static final int DATA = 0;
    static final int METADATA = 1;
    static final int NETWORK = 2;

    private VisibilityCostModel() {}

    static QueueingNetwork network(OperationMix mix, VisibilityTestbed t) {
        List<Station> stations = List.of(
                new Station("data nodes", t.dataNodes() * t.threadsPerNode(), Station.Service.EXPONENTIAL),
                new Station("metadata nodes", t.metadataNodes() * t.threadsPerNode(), Station.Service.EXPONENTIAL),
                Station.delay("network"));
        double write = mix.writeShare();
        double read = 1 - write;
        double dataWrite = t.dataServiceSeconds() * mix.dataWritesPerWrite();
        List<OperationClass> classes = new ArrayList<>();
        double visible = write * mix.acceleratedWrites();
        if (visible > 0) {
            List<Visit> route = new ArrayList<>(rpc(DATA, dataWrite, t.dataDelaySeconds(), t));
            double control = t.controlMessageSeconds() * mix.controlPerAcceleratedWrite();
            route.add(new Visit(METADATA, t.deferredUpdateSeconds() + control));
            classes.add(new OperationClass("write visible in the switch", visible, route, 3));
        }
        if (write - visible > 0) {
            List<Visit> route = new ArrayList<>(rpc(DATA, dataWrite, t.dataDelaySeconds(), t));
            // every second phase the run sent (retries included) is spread over the writes that took it
            double updates = mix.orderedUpdates() * write / (write - visible);
            route.addAll(rpc(METADATA, t.metadataServiceSeconds() * Math.max(1, updates), t.metadataDelaySeconds(), t));
            classes.add(new OperationClass("write ordered", write - visible, route));
        }
        if (read > 0) {
            // The paper's keys all exist (§V-A 3: "pre-generated"), so every read the index resolves also reads
            // the data node; the rack's reads of keys it never wrote (dataReadsPerRead below 1) are not priced
            // as cheaper reads.
            double fromSwitch = read * (1 - mix.readsAtMetadata());
            if (fromSwitch > 0) {
                List<Visit> route = new ArrayList<>(List.of(new Visit(NETWORK, 2 * t.legSeconds())));
                route.addAll(rpc(DATA, t.dataServiceSeconds(), t.dataDelaySeconds(), t));
                classes.add(new OperationClass("read answered by the switch", fromSwitch, route));
            }
            if (read - fromSwitch > 0) {
                List<Visit> route = new ArrayList<>(rpc(METADATA, t.metadataServiceSeconds(), t.metadataDelaySeconds(), t));
                route.addAll(rpc(DATA, t.dataServiceSeconds(), t.dataDelaySeconds(), t));
                classes.add(new OperationClass("read through the index", read - fromSwitch, route));
            }
        }
        return new QueueingNetwork(stations, classes);
    }

    /** Host to switch to node, the node's service (and its delay without queueing), and back. */
    private static List<Visit> rpc(int station, double seconds, double nodeDelay, VisibilityTestbed t) {
        return List.of(new Visit(NETWORK, 2 * t.legSeconds() + nodeDelay), new Visit(station, seconds),
                new Visit(NETWORK, 2 * t.legSeconds()));
    }

    static boolean isWrite(String className) {
        return className.startsWith("write");
    }
}
