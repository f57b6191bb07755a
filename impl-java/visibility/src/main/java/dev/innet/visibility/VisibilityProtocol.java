package dev.innet.visibility;

import dev.innet.protocol.HostPorts;
import dev.innet.protocol.KvClientLibrary;
import dev.innet.protocol.Protocol;
import dev.innet.protocol.RackNodes;
import dev.innet.protocol.RackSpec;
import dev.innet.sim.Node;
import dev.innet.sim.NodeContext;
import dev.innet.sim.history.HistoryRecorder;
import dev.innet.switchapi.SwitchHandle;
import dev.innet.visibility.client.VisibilityClient;
import dev.innet.visibility.controller.VisibilitySwitchOs;
import dev.innet.visibility.datanode.DataNode;
import dev.innet.visibility.metadata.MetadataNode;
import dev.innet.visibility.wire.KeyHasher;
import dev.innet.visibility.wire.VisOp;
import java.util.List;
import java.util.function.Function;

/**
 * The in-switch data visibility layer (seed visibility-layer.txt) serving its first application, a
 * log-structured key-value store (§II-A, Table I): the first server host is the metadata node (key ->
 * log address index), the others are data nodes (append-only logs), the switch runs
 * p4/visibility.p4 and the controller host is the switch OS. docs/visibility.md.
 *
 * <p>Settings and node factories are immutable {@code with...} values: that is how tests inject
 * seeded bugs (docs/adding-a-protocol.md).
 */
public final class VisibilityProtocol implements Protocol {
    /** §III-E 1: "We configure this timeout to 500 us". */
    public static final long PAPER_TIMEOUT_NANOS = 500_000;

    private final KeyHasher hasher;
    private final long timeoutNanos;
    private final int batchCapacity;
    private final long staleScanNanos;
    private final Function<RackRoles, Node> dataNodes;
    private final Function<RackRoles, Node> metadataNodes;
    private final VisibilitySwitchOs.ResyncFactory resyncs;

    public VisibilityProtocol() {
        this(KeyHasher.CRC, PAPER_TIMEOUT_NANOS, 16, 5_000_000, DataNode::new,
                roles -> MetadataNode.withPaperSettings(roles, dev.innet.visibility.VisApplication.KEY_VALUE),
                VisibilitySwitchOs.RESYNC);
    }

    private VisibilityProtocol(KeyHasher hasher, long timeoutNanos, int batchCapacity, long staleScanNanos,
            Function<RackRoles, Node> dataNodes, Function<RackRoles, Node> metadataNodes,
            VisibilitySwitchOs.ResyncFactory resyncs) {
        this.hasher = hasher;
        this.timeoutNanos = timeoutNanos;
        this.batchCapacity = batchCapacity;
        this.staleScanNanos = staleScanNanos;
        this.dataNodes = dataNodes;
        this.metadataNodes = metadataNodes;
        this.resyncs = resyncs;
    }

    /** Keys -> (index, fingerprint); {@link KeyHasher#colliding} makes collisions and fallbacks common. */
    public VisibilityProtocol withHasher(KeyHasher h) {
        return new VisibilityProtocol(h, timeoutNanos, batchCapacity, staleScanNanos, dataNodes, metadataNodes, resyncs);
    }

    public VisibilityProtocol withDataNodes(Function<RackRoles, Node> f) {
        return new VisibilityProtocol(hasher, timeoutNanos, batchCapacity, staleScanNanos, f, metadataNodes, resyncs);
    }

    public VisibilityProtocol withMetadataNodes(Function<RackRoles, Node> f) {
        return new VisibilityProtocol(hasher, timeoutNanos, batchCapacity, staleScanNanos, dataNodes, f, resyncs);
    }

    public VisibilityProtocol withResync(VisibilitySwitchOs.ResyncFactory f) {
        return new VisibilityProtocol(hasher, timeoutNanos, batchCapacity, staleScanNanos, dataNodes, metadataNodes, f);
    }

    /**
     * {@link Protocol#DATA_NODES_REPLAYING_OLDEST}: data nodes that replay each key's oldest entry to a rebuilding
     * metadata node (a crash-recovery bug for {@code ./innet sim --crashes} and trace validation to catch).
     * {@link Protocol#DATA_NODES_RESTAMPING_RETRIES}: data nodes that do not recognise a request they already wrote,
     * so a retried or duplicated write is appended again under a new timestamp (a live rack's hidden --seeded-bug,
     * which rack validate must reject).
     */
    @Override
    public java.util.Optional<Protocol> withSeededBug(String bug) {
        if (bug.equals(DATA_NODES_RESTAMPING_RETRIES)) {
            return java.util.Optional.of(withDataNodes(roles -> new DataNode(roles) {
                @Override
                protected long earlierWriteOf(int clientIp, long reqId) {
                    return -1;
                }
            }));
        }
        if (bug.equals(DATA_NODES_REPLAYING_OLDEST)) {
            return java.util.Optional.of(withDataNodes(roles -> new DataNode(roles) {
                @Override
                protected boolean replacesInReplay(dev.innet.visibility.datanode.LogEntry later,
                        dev.innet.visibility.wire.IndexRecord chosen) {
                    return false;
                }
            }));
        }
        return java.util.Optional.empty();
    }

    /**
     * Campaigns' keys share 8 switch slots under 4 fingerprints. With the real hash a campaign's few dozen keys
     * almost never share a slot, so the paths that exist for collisions (the fallback to the ordered second phase,
     * held second-phase replies, reads failing key validation and retrying) would go unchecked.
     */
    public static final KeyHasher CAMPAIGN_HASHER = KeyHasher.colliding(8, 4);

    @Override
    public Protocol forCampaigns() {
        return withHasher(CAMPAIGN_HASHER);
    }

    @Override
    public String campaignChanges() {
        return "keys colliding in 8 switch slots under 4 fingerprints";
    }

    /**
     * §III-E's failures, each with its recovery: the switch (resynchronised, MaxTs reloaded), the switch OS
     * (restarted, it leaves a ready switch alone), the metadata node (rebuilt from the data nodes' logs) and every
     * data node (its log is durable).
     */
    @Override
    public java.util.Set<dev.innet.protocol.CrashKind> recoverableCrashes() {
        return java.util.EnumSet.of(dev.innet.protocol.CrashKind.SWITCH, dev.innet.protocol.CrashKind.CONTROLLER,
                dev.innet.protocol.CrashKind.EVERY_SERVER);
    }

    @Override
    public String name() {
        return "visibility";
    }

    @Override
    public String summary() {
        return "in-switch data visibility layer: writes visible after one round trip, metadata updated asynchronously";
    }

    @Override
    public String p4Program() {
        return "p4/visibility.p4";
    }

    /** Visibility.tla replayed on p4/visibility.p4 and these nodes (docs/conformance.md, "Visibility"). */
    @Override
    public java.util.Optional<dev.innet.protocol.spec.SpecConformance> conformance() {
        return java.util.Optional.of(new dev.innet.visibility.spec.VisibilityConformance());
    }

    /**
     * Trace validation observes p4/visibility.p4's steps (installs, fallbacks, held replies, clears, read hits)
     * in the frames the switch processed and sent (docs/conformance.md, "Trace validation: Visibility").
     */
    @Override
    public boolean tracesSwitchUdpFrames() {
        return true;
    }

    @Override
    public boolean servesFromSwitch() {
        return true;
    }

    /**
     * Every server (metadata node and data nodes) and the switch OS on {@link VisOp#PORT} (5011: they send
     * to each other from it and to it); clients on {@link VisibilityClient#SOURCE_PORT} (40011).
     */
    public static final HostPorts PORTS = new HostPorts(List.of(VisOp.PORT), List.of(VisOp.PORT),
            List.of(VisibilityClient.SOURCE_PORT));

    @Override
    public HostPorts hostPorts() {
        return PORTS;
    }

    /** Who is who in {@code rack}, with the timeout its nodes use (see {@link #nodes}). */
    public RackRoles roles(RackSpec rack) {
        return RackRoles.of(rack.servers(), hasher, Math.max(timeoutNanos, rack.clientTimeoutNanos()));
    }

    @Override
    public RackNodes nodes(RackSpec rack, SwitchHandle switchHandle) {
        // The paper's 500 us is about 100 round trips in its testbed and in the simulator (the harness's
        // client timeout is 500 us there too); a live rack's round trips cross p4sim on AF_PACKET and
        // take milliseconds, so its longer client timeout wins. The stale scan keeps its ratio to the
        // timeout (10x: 5 ms at 500 us); live, each scan reads 2 x 65,536 registers over the control port.
        RackRoles roles = roles(rack);
        long staleScan = Math.max(staleScanNanos, 10 * roles.timeoutNanos());
        return new RackNodes() {
            @Override
            public Node server(int host) {
                return host == roles.metadataNode() ? metadataNodes.apply(roles) : dataNodes.apply(roles);
            }

            @Override
            public Node controller() {
                return new VisibilitySwitchOs(roles, rack.allHosts(), switchHandle, 200_000, staleScan, resyncs);
            }

            @Override
            public KvClientLibrary client(NodeContext context, HistoryRecorder history) {
                return new VisibilityClient(context, roles, history, 16, 10_000);
            }
        };
    }
}
