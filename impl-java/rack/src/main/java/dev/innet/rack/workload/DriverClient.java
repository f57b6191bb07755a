package dev.innet.rack.workload;

import dev.innet.protocol.KvClientLibrary;
import dev.innet.protocol.KvResult;
import dev.innet.protocol.RackNodes;
import dev.innet.sim.Node;
import dev.innet.sim.NodeContext;
import dev.innet.sim.history.HistoryRecorder;
import java.util.function.Consumer;

/**
 * A client host driven from outside the simulation (by a YCSB thread through the rack service, {@code SharedRack}):
 * operations are handed in with {@link #submit} from an {@code atNode} event, and complete through the
 * client library like any other client's.
 */
public final class DriverClient implements Node {
    public enum Kind { GET, PUT, DELETE }

    private final RackNodes protocolNodes;
    private final HistoryRecorder history;
    private KvClientLibrary client;

    public DriverClient(RackNodes protocolNodes, HistoryRecorder history) {
        this.protocolNodes = protocolNodes;
        this.history = history;
    }

    @Override
    public void onStart(NodeContext ctx) {
        client = protocolNodes.client(ctx, history);
    }

    @Override
    public void onPacket(byte[] frame) {
        client.onPacket(frame);
    }

    @Override
    public void onTimer(long timerId) {
        client.onTimer(timerId);
    }

    public void submit(Kind kind, byte[] key, byte[] value, Consumer<KvResult> done) {
        switch (kind) {
            case GET -> client.get(key, done);
            case PUT -> client.put(key, value, done);
            case DELETE -> client.delete(key, done);
        }
    }
}
