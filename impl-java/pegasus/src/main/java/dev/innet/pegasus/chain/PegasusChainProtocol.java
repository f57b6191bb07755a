package dev.innet.pegasus.chain;

import dev.innet.kv.store.RecordStoreOpener;
import dev.innet.kv.KvOp;
import dev.innet.pegasus.client.PegasusClient;
import dev.innet.pegasus.wire.PegasusOp;
import dev.innet.pegasus.PegasusRack;
import dev.innet.pegasus.controller.PegasusController;
import dev.innet.pegasus.monitor.AtMostOnceMonitor;
import dev.innet.pegasus.server.PegasusServer;
import dev.innet.protocol.HostPorts;
import dev.innet.protocol.KvClientLibrary;
import dev.innet.protocol.Protocol;
import dev.innet.protocol.RackNodes;
import dev.innet.protocol.RackSpec;
import dev.innet.protocol.Topology;
import dev.innet.sim.Node;
import dev.innet.sim.NodeContext;
import dev.innet.sim.history.HistoryRecorder;
import dev.innet.switchapi.SwitchHandle;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * Pegasus beyond one rack (§7): {@link ChainNetwork}'s racks, each a Pegasus rack with its own switch
 * (p4/pegasus.p4 with its rack gate on), servers and {@link ChainRackController}; keys replicated across
 * racks by chain replication whose versions come from the head rack's switch (P-16); clients writing to
 * the head and reading from the tail ({@link PegasusChainClient}); racks removed from the chains by the
 * {@link ChainConfigService} when they fail. The rack's server hosts are split into the racks in order.
 */
public final class PegasusChainProtocol implements Protocol {
    /** Builds a server node (seeded-bug tests substitute a subclass). */
    @FunctionalInterface
    public interface ServerFactory {
        Node create(PegasusRack rack, RecordStoreOpener opener, AtMostOnceMonitor monitor, ChainRole role);
    }

    /** Builds a rack's controller (seeded-bug tests substitute a subclass). */
    @FunctionalInterface
    public interface RackControllerFactory {
        Node create(PegasusController.Config config, SwitchHandle handle, int rack, ChainPlacement placement);
    }

    private final ChainNetwork network;
    private final AtMostOnceMonitor monitor;
    private final ServerFactory servers;
    private final RackControllerFactory rackControllers;
    private final UnaryOperator<ChainConfigService.Settings> serviceSettings;
    private final UnaryOperator<PegasusRack> rackSettings;

    /** The registry's instance: two racks, as the paper's §9.8. */
    public PegasusChainProtocol() {
        this(2);
    }

    public PegasusChainProtocol(int racks) {
        this(new ChainNetwork(racks), new AtMostOnceMonitor(), PegasusServer::new, ChainRackController::new, s -> s, r -> r);
    }

    private PegasusChainProtocol(ChainNetwork network, AtMostOnceMonitor monitor, ServerFactory servers,
            RackControllerFactory rackControllers, UnaryOperator<ChainConfigService.Settings> serviceSettings,
            UnaryOperator<PegasusRack> rackSettings) {
        this.network = network;
        this.monitor = monitor;
        this.servers = servers;
        this.rackControllers = rackControllers;
        this.serviceSettings = serviceSettings;
        this.rackSettings = rackSettings;
    }

    /** Adjusts every rack's settings derived from the harness's RackSpec (drain time, slots; as PegasusProtocol.withRack). */
    public PegasusChainProtocol withRack(UnaryOperator<PegasusRack> f) {
        return new PegasusChainProtocol(network, monitor, servers, rackControllers, serviceSettings, f);
    }

    /** Servers report the writes they execute as detectors to {@code m} (the spec's AtMostOnce). */
    public PegasusChainProtocol withMonitor(AtMostOnceMonitor m) {
        return new PegasusChainProtocol(network, m, servers, rackControllers, serviceSettings, rackSettings);
    }

    public PegasusChainProtocol withServers(ServerFactory f) {
        return new PegasusChainProtocol(network, monitor, f, rackControllers, serviceSettings, rackSettings);
    }

    public PegasusChainProtocol withRackControllers(RackControllerFactory f) {
        return new PegasusChainProtocol(network, monitor, servers, f, serviceSettings, rackSettings);
    }

    public PegasusChainProtocol withServiceSettings(UnaryOperator<ChainConfigService.Settings> f) {
        return new PegasusChainProtocol(network, monitor, servers, rackControllers, f, rackSettings);
    }

    public ChainNetwork network() {
        return network;
    }

    @Override
    public String name() {
        return "pegasus-chain";
    }

    @Override
    public String summary() {
        return "Pegasus across " + network.racks() + " racks (§7): chain replication with the head switch's versions";
    }

    @Override
    public String p4Program() {
        return "p4/pegasus.p4";
    }

    @Override
    public boolean servesFromSwitch() {
        return false;
    }

    /**
     * Pegasus's ports, plus what the chain adds: a server passes a write down the chain from the client's
     * port (40010), as the client (docs/pegasus.md "Across racks"), and clients hear the configuration
     * service on the family's control port (5009). Live racks do not run this protocol.
     */
    public static final HostPorts PORTS = new HostPorts(List.of(PegasusOp.PORT, PegasusClient.SOURCE_PORT),
            List.of(PegasusOp.PORT, PegasusController.CONTROL_SOURCE_PORT),
            List.of(PegasusClient.SOURCE_PORT, KvOp.CONTROL_PORT));

    @Override
    public HostPorts hostPorts() {
        return PORTS;
    }

    @Override
    public java.util.Optional<dev.innet.protocol.spec.SpecConformance> conformance() {
        return java.util.Optional.of(new dev.innet.pegasus.spec.PegasusChainConformance());
    }

    @Override
    public Topology topology(RackSpec rack) {
        return network.topology(rack);
    }

    @Override
    public RackNodes nodes(RackSpec rack, SwitchHandle switchHandle) {
        throw new IllegalStateException("pegasus-chain runs on its racks' topology: the harness passes one handle per switch");
    }

    @Override
    public RackNodes nodes(RackSpec spec, Topology topology, Map<String, SwitchHandle> handles) {
        ChainPlacement placement = new ChainPlacement(network.rackServers(spec.servers()));
        PegasusRack whole = rackSettings.apply(PegasusRack.of(spec));
        RecordStoreOpener stores = spec.durableServers() ? RecordStoreOpener.rocksdb() : RecordStoreOpener.memory();
        long retry = Math.max(whole.clientTimeoutNanos(), 4 * spec.controlStepNanos());
        ChainConfigService.Settings service = serviceSettings.apply(new ChainConfigService.Settings(
                Math.max(spec.counterResetNanos() / 4, 200_000), 4 * Math.max(spec.counterResetNanos() / 4, 200_000),
                whole.drainNanos(), retry));
        return new RackNodes() {
            @Override
            public Node server(int host) {
                int r = placement.rackOfServer(host);
                return servers.create(rackOf(r), stores, monitor, new ChainRole(r, placement));
            }

            @Override
            public Node controller() {
                return new ChainConfigService(placement, topology, spec.clients(), handles.get(ChainNetwork.CORE), service);
            }

            @Override
            public Node otherHost(int host) {
                int r = host - ChainNetwork.RACK_CONTROLLER_BASE;
                if (r < 1 || r > network.racks()) {
                    throw new IllegalArgumentException("host " + host + " is no rack's controller");
                }
                String sw = ChainNetwork.rackSwitch(r);
                List<Integer> others = new ArrayList<>(topology.hosts().keySet());
                others.removeAll(placement.serversOf(r));
                others.remove(Integer.valueOf(host));
                PegasusController.Config config = new PegasusController.Config(rackOf(r), List.of(), spec.clients(),
                        spec.hotThreshold(), spec.counterResetNanos(), spec.controlStepNanos(), retry)
                        .inChain(others, h -> topology.portTowardHost(sw, h, Set.of()));
                return rackControllers.create(config, handles.get(sw), r, placement);
            }

            @Override
            public KvClientLibrary client(NodeContext context, HistoryRecorder history) {
                return new PegasusChainClient(context, whole, placement, history);
            }

            private PegasusRack rackOf(int r) {
                return new PegasusRack(placement.serversOf(r), ChainNetwork.controllerOf(r), whole.clientTimeoutNanos(),
                        whole.clientAttempts(), whole.directorySlots(), whole.drainNanos());
            }
        };
    }
}
