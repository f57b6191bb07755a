package dev.innet.farreach;

import dev.innet.farreach.client.FarReachClient;
import dev.innet.farreach.controller.ControllerHooks;
import dev.innet.farreach.controller.FarReachController;
import dev.innet.farreach.controller.FarReachSettings;
import dev.innet.farreach.server.FarReachServer;
import dev.innet.kv.cache.CacheControllerConfig;
import dev.innet.kv.FamilyRack;
import dev.innet.kv.server.ServerConfig;
import dev.innet.kv.store.RecordStore;
import dev.innet.kv.store.RecordStoreOpener;
import dev.innet.protocol.KvClientLibrary;
import dev.innet.protocol.Protocol;
import dev.innet.protocol.RackNodes;
import dev.innet.protocol.RackSpec;
import dev.innet.sim.Node;
import dev.innet.sim.NodeContext;
import dev.innet.sim.history.HistoryRecorder;
import dev.innet.switchapi.SwitchHandle;
import dev.innet.kv.client.ClientConfig;
import java.util.function.Function;

/**
 * FarReach as the harness runs it: p4/farreach.p4 on the switch, {@link FarReachServer}s,
 * {@link FarReachController}, {@link FarReachClient}. Its own settings (snapshot period, monitors'
 * hooks) and the node factories are set with {@code with...}; tests use the factories to inject a
 * seeded bug as a test-only subclass of a server or a controller procedure.
 */
public final class FarReachProtocol implements Protocol {
    /** Builds a server node (tests substitute a subclass). */
    @FunctionalInterface
    public interface ServerFactory {
        Node create(ServerConfig config, RecordStoreOpener opener);
    }

    /** Builds a controller node (tests substitute a subclass whose procedure factories break a rule). */
    @FunctionalInterface
    public interface ControllerFactory {
        Node create(CacheControllerConfig config, FarReachSettings settings, SwitchHandle handle, ControllerHooks hooks);
    }

    /** Builds a client library (tests substitute a subclass that breaks record preservation). */
    @FunctionalInterface
    public interface ClientFactory {
        FarReachClient create(NodeContext context, ClientConfig config, HistoryRecorder history);
    }

    private final FarReachSettings settings;
    private final Function<SwitchHandle, ControllerHooks> hooks;
    private final ServerFactory servers;
    private final ControllerFactory controllers;
    private final ClientFactory clients;
    private final boolean retryWrites;

    /** The registry's instance: defaults everywhere. */
    public FarReachProtocol() {
        this(FarReachSettings.DEFAULTS, h -> ControllerHooks.NONE, FarReachServer::new, FarReachController::new,
                FarReachClient::new, true);
    }

    private FarReachProtocol(FarReachSettings settings, Function<SwitchHandle, ControllerHooks> hooks,
            ServerFactory servers, ControllerFactory controllers, ClientFactory clients, boolean retryWrites) {
        this.settings = settings;
        this.retryWrites = retryWrites;
        this.hooks = hooks;
        this.servers = servers;
        this.controllers = controllers;
        this.clients = clients;
    }

    /** Time between crash-consistent snapshots (default 10 s of simulated time; 0 = none). */
    public FarReachProtocol withSnapshotPeriodNanos(long n) {
        return new FarReachProtocol(settings.withSnapshotPeriodNanos(n), hooks, servers, controllers, clients, retryWrites);
    }

    /**
     * Observers of the controller (runtime monitors), built once per rack run from the controller's
     * connection to the switch, which they may read as outside observers.
     */
    public FarReachProtocol withHooks(Function<SwitchHandle, ControllerHooks> h) {
        return new FarReachProtocol(settings, h, servers, controllers, clients, retryWrites);
    }

    public FarReachProtocol withServers(ServerFactory f) {
        return new FarReachProtocol(settings, hooks, f, controllers, clients, retryWrites);
    }

    public FarReachProtocol withControllers(ControllerFactory f) {
        return new FarReachProtocol(settings, hooks, servers, f, clients, retryWrites);
    }

    public FarReachProtocol withClients(ClientFactory f) {
        return new FarReachProtocol(settings, hooks, servers, controllers, f, retryWrites);
    }

    /**
     * Whether clients retry writes (default true). Some trace validation tests turn it off to keep their runs
     * small; trace validation expresses retried writes (docs/conformance.md, "Write copies").
     */
    public FarReachProtocol withWriteRetries(boolean on) {
        return new FarReachProtocol(settings, hooks, servers, controllers, clients, on);
    }

    @Override
    public String name() {
        return "farreach";
    }

    @Override
    public String summary() {
        return "FarReach write-back cache: non-blocking admission, available eviction, snapshots, zero-loss recovery";
    }

    @Override
    public String p4Program() {
        return "p4/farreach.p4";
    }

    @Override
    public boolean servesFromSwitch() {
        return true;
    }

    @Override
    public java.util.Optional<Protocol> withSeededBug(String bug) {
        if (!bug.equals(SERVERS_IGNORING_SEQUENCE_NUMBERS)) {
            return java.util.Optional.empty();
        }
        return java.util.Optional.of(withServers((config, opener) -> new FarReachServer(config, opener) {
            @Override
            protected RecordStore.Ordering numberedOrdering() {
                return RecordStore.Ordering.ARRIVAL;
            }
        }));
    }

    @Override
    public java.util.Optional<dev.innet.protocol.spec.SpecConformance> conformance() {
        return java.util.Optional.of(new dev.innet.farreach.spec.FarReachConformance());
    }

    /**
     * FarReach's clients retry writes: farreach.p4 gives a retried write (same client, same request id)
     * the sequence number of its first copy, so servers and the cache apply it at most once
     * (docs/farreach.md, "Client semantics"). The family's default is not to retry.
     */
    static ClientConfig retryingWrites(ClientConfig c) {
        return new ClientConfig(c.serverHosts(), c.timeoutNanos(), c.maxAttempts(), true, c.sourcePort());
    }

    @Override
    public RackNodes nodes(RackSpec rack, SwitchHandle switchHandle) {
        FamilyRack family = FamilyRack.of(rack);
        CacheControllerConfig controllerConfig = CacheControllerConfig.of(rack);
        ControllerHooks observers = hooks.apply(switchHandle);
        return new RackNodes() {
            @Override
            public Node server(int host) {
                return servers.create(family.servers(), family.stores());
            }

            @Override
            public Node controller() {
                return controllers.create(controllerConfig, settings, switchHandle, observers);
            }

            @Override
            public KvClientLibrary client(NodeContext context, HistoryRecorder history) {
                return clients.create(context, retryWrites ? retryingWrites(family.clients()) : family.clients(), history);
            }
        };
    }
}
