package dev.innet.pegasus;

import dev.innet.kv.store.RecordStoreOpener;
import dev.innet.pegasus.client.PegasusClient;
import dev.innet.pegasus.controller.PegasusController;
import dev.innet.pegasus.server.PegasusServer;
import dev.innet.pegasus.wire.PegasusOp;
import dev.innet.protocol.HostPorts;
import dev.innet.protocol.KvClientLibrary;
import dev.innet.protocol.Protocol;
import dev.innet.protocol.RackNodes;
import dev.innet.protocol.RackSpec;
import dev.innet.sim.Node;
import dev.innet.sim.NodeContext;
import dev.innet.sim.history.HistoryRecorder;
import dev.innet.switchapi.SwitchHandle;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * Pegasus as the harness runs it: p4/pegasus.p4, {@link PegasusServer}s, {@link PegasusClient}s and the
 * {@link PegasusController}. Node factories and the rack settings are set with {@code with...}; tests
 * inject seeded bugs through them.
 */
public final class PegasusProtocol implements Protocol {
    /** Builds a server node (tests substitute a subclass). */
    @FunctionalInterface
    public interface ServerFactory {
        Node create(PegasusRack rack, RecordStoreOpener opener);
    }

    /** Builds a controller node. */
    @FunctionalInterface
    public interface ControllerFactory {
        Node create(PegasusController.Config config, SwitchHandle handle);
    }

    /** Builds a client library. */
    @FunctionalInterface
    public interface ClientFactory {
        KvClientLibrary create(NodeContext context, PegasusRack rack, HistoryRecorder history);
    }

    private final ServerFactory servers;
    private final ControllerFactory controllers;
    private final ClientFactory clients;
    private final UnaryOperator<PegasusRack> rackSettings;

    /** The registry's instance. */
    public PegasusProtocol() {
        this(PegasusServer::new, PegasusController::new, PegasusClient::new, r -> r);
    }

    private PegasusProtocol(ServerFactory servers, ControllerFactory controllers, ClientFactory clients,
            UnaryOperator<PegasusRack> rackSettings) {
        this.servers = servers;
        this.controllers = controllers;
        this.clients = clients;
        this.rackSettings = rackSettings;
    }

    public PegasusProtocol withServers(ServerFactory f) {
        return new PegasusProtocol(f, controllers, clients, rackSettings);
    }

    public PegasusProtocol withControllers(ControllerFactory f) {
        return new PegasusProtocol(servers, f, clients, rackSettings);
    }

    public PegasusProtocol withClients(ClientFactory f) {
        return new PegasusProtocol(servers, controllers, f, rackSettings);
    }

    /** Adjusts the rack settings derived from the harness's RackSpec (attempts, drain time, slots). */
    public PegasusProtocol withRack(UnaryOperator<PegasusRack> f) {
        return new PegasusProtocol(servers, controllers, clients, f);
    }

    /**
     * {@link Protocol#SERVERS_IGNORING_SEQUENCE_NUMBERS}: servers that apply every write whatever the version the
     * switch stamped on it, so a write that reaches its server after a newer one of its key overwrites it
     * (Pegasus.tla's BugAcceptLower; a live rack's hidden --seeded-bug, which rack validate must reject).
     */
    @Override
    public java.util.Optional<Protocol> withSeededBug(String bug) {
        if (!bug.equals(SERVERS_IGNORING_SEQUENCE_NUMBERS)) {
            return java.util.Optional.empty();
        }
        return java.util.Optional.of(withServers((rack, opener) -> new dev.innet.pegasus.server.PegasusServer(rack, opener) {
            @Override
            protected boolean accepts(java.util.Optional<dev.innet.kv.store.StoredRecord> current, long version) {
                return true;
            }
        }));
    }

    @Override
    public String name() {
        return "pegasus";
    }

    @Override
    public String summary() {
        return "Pegasus coherence directory: hot keys replicated by the switch, versions stamped in-network, "
                + "reads routed by server load";
    }

    @Override
    public String p4Program() {
        return "p4/pegasus.p4";
    }

    @Override
    public boolean servesFromSwitch() {
        return false;
    }

    /** Trace validation reads every Pegasus frame the switch processed and sent (PegasusTraceConverter). */
    @Override
    public boolean tracesSwitchUdpFrames() {
        return true;
    }

    @Override
    public java.util.Optional<dev.innet.protocol.spec.SpecConformance> conformance() {
        return java.util.Optional.of(new dev.innet.pegasus.spec.PegasusConformance());
    }

    /**
     * Servers on {@link PegasusOp#PORT} (5010: requests, replication, the controller's requests); the
     * controller on 5010 (the switch's reports are addressed there) and {@link PegasusController#CONTROL_SOURCE_PORT}
     * (40254: its requests' replies); clients on {@link PegasusClient#SOURCE_PORT} (40010).
     */
    public static final HostPorts PORTS = new HostPorts(List.of(PegasusOp.PORT),
            List.of(PegasusOp.PORT, PegasusController.CONTROL_SOURCE_PORT), List.of(PegasusClient.SOURCE_PORT));

    @Override
    public HostPorts hostPorts() {
        return PORTS;
    }

    @Override
    public RackNodes nodes(RackSpec spec, SwitchHandle switchHandle) {
        PegasusRack rack = rackSettings.apply(PegasusRack.of(spec));
        RecordStoreOpener stores = spec.durableServers() ? RecordStoreOpener.rocksdb() : RecordStoreOpener.memory();
        PegasusController.Config controllerConfig = new PegasusController.Config(rack, spec.allHosts(), spec.clients(),
                spec.hotThreshold(), spec.counterResetNanos(), spec.controlStepNanos(),
                Math.max(rack.clientTimeoutNanos(), 4 * spec.controlStepNanos()));
        return new RackNodes() {
            @Override
            public Node server(int host) {
                return servers.create(rack, stores);
            }

            @Override
            public Node controller() {
                return controllers.create(controllerConfig, switchHandle);
            }

            @Override
            public KvClientLibrary client(NodeContext context, HistoryRecorder history) {
                return clients.create(context, rack, history);
            }
        };
    }
}
