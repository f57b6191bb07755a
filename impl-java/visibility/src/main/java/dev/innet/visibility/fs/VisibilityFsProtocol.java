package dev.innet.visibility.fs;

import dev.innet.protocol.ClientStats;
import dev.innet.protocol.HostPorts;
import dev.innet.protocol.KvClientLibrary;
import dev.innet.protocol.Protocol;
import dev.innet.protocol.RackNodes;
import dev.innet.protocol.RackSpec;
import dev.innet.sim.Node;
import dev.innet.sim.NodeContext;
import dev.innet.sim.history.HistoryRecorder;
import dev.innet.switchapi.SwitchHandle;
import dev.innet.visibility.RackRoles;
import dev.innet.visibility.VisibilityProtocol;
import dev.innet.visibility.datanode.DataNode;
import dev.innet.visibility.metadata.MetadataNode;
import java.util.function.UnaryOperator;

/**
 * The visibility layer's second application, a file-system namespace (create, whole-file write, stat on
 * paths), as its own protocol {@code visibility-fs}: the same P4 program, switch OS, data and metadata
 * nodes and wire format as {@code visibility}, with {@link FsApplication} as their application, and client
 * hosts that run the file-system workload ({@link FsWorkload}) instead of the rack's key-value one.
 * Histories are file histories (docs/history-format.md §3.2), checked by lincheck's file model.
 * docs/visibility.md, "The second application: a file-system namespace".
 */
public final class VisibilityFsProtocol implements Protocol {
    private final VisibilityProtocol layer;
    private final FsWorkload workload;
    private final FsWorkloadClient.ClientFactory clients;

    public VisibilityFsProtocol() {
        this(new VisibilityProtocol().withDataNodes(roles -> new DataNode(roles, FsApplication.INSTANCE))
                .withMetadataNodes(roles -> MetadataNode.withPaperSettings(roles, FsApplication.INSTANCE)),
                FsWorkload.standard(), (ctx, roles, history) -> new FsClient(ctx, roles, history, 16, 10_000));
    }

    private VisibilityFsProtocol(VisibilityProtocol layer, FsWorkload workload, FsWorkloadClient.ClientFactory clients) {
        this.layer = layer;
        this.workload = workload;
        this.clients = clients;
    }

    /**
     * This protocol on the layer {@code change} makes of its own (a hasher that makes paths collide; node
     * factories with seeded bugs, which must make nodes of {@link FsApplication}).
     */
    public VisibilityFsProtocol withLayer(UnaryOperator<VisibilityProtocol> change) {
        return new VisibilityFsProtocol(change.apply(layer), workload, clients);
    }

    public VisibilityFsProtocol withWorkload(FsWorkload w) {
        return new VisibilityFsProtocol(layer, w, clients);
    }

    /** Client hosts with this client library (tests: a seeded bug). */
    public VisibilityFsProtocol withClients(FsWorkloadClient.ClientFactory f) {
        return new VisibilityFsProtocol(layer, workload, f);
    }

    public FsWorkload workload() {
        return workload;
    }

    @Override
    public String name() {
        return "visibility-fs";
    }

    @Override
    public String summary() {
        return "visibility layer, file-system namespace: inode updates visible in the switch, applied later by the metadata node";
    }

    @Override
    public String p4Program() {
        return layer.p4Program();
    }

    /**
     * Campaigns' paths share 4 switch slots under one fingerprint, as FsRackTest's campaigns: the workload's 24 paths
     * would otherwise almost never share a slot, and the fallbacks, held replies and a stat's own check of the path
     * in an inode (a colliding entry of another path) would go unchecked.
     */
    public static final dev.innet.visibility.wire.KeyHasher CAMPAIGN_HASHER = dev.innet.visibility.wire.KeyHasher.colliding(4, 1);

    @Override
    public Protocol forCampaigns() {
        return withLayer(l -> l.withHasher(CAMPAIGN_HASHER));
    }

    @Override
    public String campaignChanges() {
        return "paths colliding in 4 switch slots under 1 fingerprint";
    }

    /**
     * {@link Protocol#DATA_NODES_REPLAYING_OLDEST}, as for the key-value store: the file system's data nodes replay each
     * path's oldest inode to a rebuilding metadata node, so a metadata node rebuilt after its crash indexes stale
     * inodes (a crash-recovery bug for {@code ./innet sim --program visibility-fs --crashes} to catch).
     */
    @Override
    public java.util.Optional<Protocol> withSeededBug(String bug) {
        if (bug.equals(DATA_NODES_REPLAYING_OLDEST)) {
            return java.util.Optional.of(withLayer(l -> l.withDataNodes(roles -> new DataNode(roles, FsApplication.INSTANCE) {
                @Override
                protected boolean replacesInReplay(dev.innet.visibility.datanode.LogEntry later,
                        dev.innet.visibility.wire.IndexRecord chosen) {
                    return false;
                }
            })));
        }
        return java.util.Optional.empty();
    }

    /** The layer's: the same switch, switch OS, metadata node and data nodes recover the same way. */
    @Override
    public java.util.Set<dev.innet.protocol.CrashKind> recoverableCrashes() {
        return layer.recoverableCrashes();
    }

    @Override
    public boolean servesFromSwitch() {
        return true;
    }

    @Override
    public HostPorts hostPorts() {
        return layer.hostPorts();
    }

    @Override
    public RackNodes nodes(RackSpec rack, SwitchHandle switchHandle) {
        RackNodes nodes = layer.nodes(rack, switchHandle);
        RackRoles roles = layer.roles(rack);
        return new RackNodes() {
            @Override
            public Node server(int host) {
                return nodes.server(host);
            }

            @Override
            public Node controller() {
                return nodes.controller();
            }

            @Override
            public KvClientLibrary client(NodeContext context, HistoryRecorder history) {
                throw new UnsupportedOperationException("visibility-fs has no key-value client: its client hosts run the "
                        + "file-system workload (simulated racks: ./innet sim --program visibility-fs)");
            }

            @Override
            public Node applicationClient(long stopNanos, HistoryRecorder history, ClientStats stats) {
                return new FsWorkloadClient(ctx -> clients.create(ctx, roles, history), workload, stopNanos, stats);
            }
        };
    }
}
