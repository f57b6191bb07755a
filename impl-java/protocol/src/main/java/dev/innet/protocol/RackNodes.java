package dev.innet.protocol;

import dev.innet.sim.Node;
import dev.innet.sim.NodeContext;
import dev.innet.sim.history.HistoryRecorder;

/**
 * A protocol's nodes for one rack. Each method is called at every (re)start of the host in question
 * and must return a new object: only the durable store carries state across incarnations.
 */
public interface RackNodes {
    /** The storage server on {@code host} (one of {@link RackSpec#servers()}). */
    Node server(int host);

    /** The controller and switch OS on {@link RackSpec#controllerHost()}, the switch's CPU port. */
    Node controller();

    /**
     * The client library a client host embeds, bound to that host's context; every operation is
     * recorded in {@code history} when it is not null.
     */
    KvClientLibrary client(NodeContext context, HistoryRecorder history);

    /**
     * A client host that runs the protocol's own application and workload instead of the rack's key-value
     * one (the visibility layer's file-system namespace: create, write and stat on paths), or null (the
     * default): the rack's key-value workload then drives {@link #client}. Called at every (re)start of a
     * client host; the node issues operations until {@code stopNanos}, records each in {@code history} and
     * reports each ended one to {@code stats}.
     */
    default Node applicationClient(long stopNanos, HistoryRecorder history, ClientStats stats) {
        return null;
    }

    /**
     * A host the protocol's {@link Topology} cables beyond the rack's servers, clients and controller:
     * another switch's controller on that switch's CPU port (Pegasus's racks of a chain, §7, each have
     * their own). A topology without such hosts never asks.
     */
    default Node otherHost(int host) {
        throw new IllegalStateException("host " + host + " is in the topology but the protocol makes no node for it");
    }
}
