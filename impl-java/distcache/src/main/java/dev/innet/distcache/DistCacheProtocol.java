package dev.innet.distcache;

import dev.innet.distcache.client.DistCacheClient;
import dev.innet.distcache.controller.DistCacheController;
import dev.innet.distcache.wire.DcOp;
import dev.innet.distcache.server.DistCacheServer;
import dev.innet.kv.FamilyRack;
import dev.innet.kv.client.ClientConfig;
import dev.innet.kv.store.RecordStoreOpener;
import dev.innet.protocol.KvClientLibrary;
import dev.innet.protocol.Protocol;
import dev.innet.protocol.RackNodes;
import dev.innet.protocol.RackSpec;
import dev.innet.protocol.Topology;
import dev.innet.sim.Node;
import dev.innet.sim.NodeContext;
import dev.innet.sim.history.HistoryRecorder;
import dev.innet.switchapi.SwitchHandle;
import java.util.List;
import java.util.Map;

/**
 * DistCache as the harness runs it: a leaf-spine network of p4sim switches all running p4/distcache.p4
 * ({@link DistCacheNetwork}: spines are the upper cache layer, storage racks' ToRs the lower one, a
 * client ToR routes reads), {@link DistCacheServer}s with the two-phase update, {@link DistCacheClient}s,
 * and the {@link DistCacheController}. The node factories are set with {@code with...}; tests use them
 * to seed bugs.
 */
public final class DistCacheProtocol implements Protocol {
    /** Builds a server node (tests substitute a subclass). */
    @FunctionalInterface
    public interface ServerFactory {
        Node create(List<Integer> servers, RecordStoreOpener opener, long resendNanos);
    }

    /** Phase-1 invalidations are resent after this long without an acknowledgement. */
    public static final long DEFAULT_RESEND_NANOS = 100_000;

    private final DistCacheNetwork network;
    private final ServerFactory servers;
    private final long resendNanos;
    /** Whether the agents re-fill copies that stay invalid (CacheRefetch); off only as a test's seeded gap. */
    private final boolean refetch;

    /** The registry's instance: 2 spines, 2 storage racks. */
    public DistCacheProtocol() {
        this(new DistCacheNetwork(2, 2), DistCacheServer::new, DEFAULT_RESEND_NANOS, true);
    }

    private DistCacheProtocol(DistCacheNetwork network, ServerFactory servers, long resendNanos, boolean refetch) {
        this.network = network;
        this.servers = servers;
        this.resendNanos = resendNanos;
        this.refetch = refetch;
    }

    /** Another shape of the network. */
    public DistCacheProtocol withNetwork(int spines, int leaves) {
        return new DistCacheProtocol(new DistCacheNetwork(spines, leaves), servers, resendNanos, refetch);
    }

    public DistCacheProtocol withServers(ServerFactory f) {
        return new DistCacheProtocol(network, f, resendNanos, refetch);
    }

    /**
     * Test-only: agents that never re-fill a copy that stays invalid (innet's agent before CacheRefetch;
     * DistCacheLive.tla's MCDistCacheLive_NoRefetch).
     */
    public DistCacheProtocol withoutRefetch() {
        return new DistCacheProtocol(network, servers, resendNanos, false);
    }

    public DistCacheNetwork network() {
        return network;
    }

    /**
     * {@link Protocol#SERVERS_SKIPPING_PHASE_ONE}: servers that apply a write, acknowledge it and send the updates at
     * once, without invalidating the copies first (DistCache.tla's BugSinglePhase; a live rack's hidden
     * --seeded-bug, which rack validate must reject).
     */
    @Override
    public java.util.Optional<Protocol> withSeededBug(String bug) {
        if (!bug.equals(SERVERS_SKIPPING_PHASE_ONE)) {
            return java.util.Optional.empty();
        }
        return java.util.Optional.of(withServers((servers, opener, resend) -> new DistCacheServer(servers, opener, resend) {
            @Override
            protected boolean invalidatesBeforeApplying() {
                return false;
            }
        }));
    }

    @Override
    public String name() {
        return "distcache";
    }

    @Override
    public String summary() {
        return "DistCache two-layer cache (spine + leaf switches), power-of-two-choices reads, two-phase coherence";
    }

    @Override
    public String p4Program() {
        return "p4/distcache.p4";
    }

    /**
     * Servers on {@link DcOp#PORT} (5012: requests, invalidation acknowledgements, the controller's FETCH);
     * the controller on 5012 (the switches' HOT reports are addressed there, and it sends FETCH from it);
     * clients on {@link DistCacheClient#SOURCE_PORT} (40012: their requests' replies).
     */
    public static final dev.innet.protocol.HostPorts PORTS = new dev.innet.protocol.HostPorts(List.of(DcOp.PORT),
            List.of(DcOp.PORT), List.of(DistCacheClient.SOURCE_PORT));

    @Override
    public dev.innet.protocol.HostPorts hostPorts() {
        return PORTS;
    }

    /**
     * Live racks: 3 sampled reads per counter period (1 s) make a key hot. The program's default (16) is
     * rarely reached there: a live workload's few hundred operations a second are spread over the keys and
     * over the cache switches that count them, and a campaign would then test almost no cached reads.
     */
    @Override
    public int liveHotThreshold() {
        return 3;
    }

    /**
     * Trace validation observes the cache switches' steps (hits, misses, invalidations, updates) in the frames
     * each switch processed and sent, named by switch (docs/conformance.md, "DistCache: trace validation").
     */
    @Override
    public boolean tracesSwitchUdpFrames() {
        return true;
    }

    @Override
    public boolean servesFromSwitch() {
        return true;
    }

    /** DistCache.tla replayed on p4/distcache.p4 and these hosts (docs/conformance.md, "DistCache"). */
    @Override
    public java.util.Optional<dev.innet.protocol.spec.SpecConformance> conformance() {
        return java.util.Optional.of(new dev.innet.distcache.spec.DistCacheConformance());
    }

    @Override
    public Topology topology(RackSpec rack) {
        return network.topology(rack);
    }

    @Override
    public RackNodes nodes(RackSpec rack, SwitchHandle switchHandle) {
        throw new IllegalStateException("distcache runs on its leaf-spine topology: the harness passes one handle per switch");
    }

    @Override
    public RackNodes nodes(RackSpec rack, Topology topology, Map<String, SwitchHandle> switchHandles) {
        FamilyRack family = FamilyRack.of(rack);
        ClientConfig clients = new ClientConfig(rack.servers(), rack.clientTimeoutNanos(), 5, false,
                DistCacheClient.SOURCE_PORT);
        DistCacheController.Settings settings = new DistCacheController.Settings(100_000, 300_000,
                rack.counterResetNanos(), Math.max(1, Math.min(rack.cacheCapacity(), 16384)), rack.hotThreshold(), refetch);
        return new RackNodes() {
            @Override
            public Node server(int host) {
                return servers.create(rack.servers(), family.stores(), resendNanos);
            }

            @Override
            public Node controller() {
                return new DistCacheController(rack, network, topology, switchHandles, settings);
            }

            @Override
            public KvClientLibrary client(NodeContext context, HistoryRecorder history) {
                return new DistCacheClient(context, clients, history);
            }
        };
    }
}
