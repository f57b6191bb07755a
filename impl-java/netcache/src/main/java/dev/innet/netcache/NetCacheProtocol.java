package dev.innet.netcache;

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

/**
 * NetCache as the harness runs it: p4/netcache.p4, the family's storage servers and client (with
 * NetCache's trace events: {@link NetCacheServer}, {@link NetCacheClient}), {@link NetCacheController}.
 * The node factories are set with {@code with...}; tests use them to inject a seeded bug as a
 * test-only subclass.
 */
public final class NetCacheProtocol implements Protocol {
    /** Builds a server node (tests substitute a subclass). */
    @FunctionalInterface
    public interface ServerFactory {
        Node create(ServerConfig config, RecordStoreOpener opener);
    }

    /** Builds a controller node (tests substitute a subclass). */
    @FunctionalInterface
    public interface ControllerFactory {
        Node create(CacheControllerConfig config, SwitchHandle handle);
    }

    private final ServerFactory servers;
    private final ControllerFactory controllers;

    /** The registry's instance. */
    public NetCacheProtocol() {
        this(NetCacheServer::new, NetCacheController::new);
    }

    private NetCacheProtocol(ServerFactory servers, ControllerFactory controllers) {
        this.servers = servers;
        this.controllers = controllers;
    }

    public NetCacheProtocol withServers(ServerFactory f) {
        return new NetCacheProtocol(f, controllers);
    }

    public NetCacheProtocol withControllers(ControllerFactory f) {
        return new NetCacheProtocol(servers, f);
    }

    @Override
    public String name() {
        return "netcache";
    }

    @Override
    public String summary() {
        return "NetCache write-through cache (baseline): reads served from the switch, writes invalidate";
    }

    @Override
    public String p4Program() {
        return "p4/netcache.p4";
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
        return java.util.Optional.of(withServers((config, opener) -> new NetCacheServer(config, opener) {
            @Override
            protected RecordStore.Ordering numberedOrdering() {
                return RecordStore.Ordering.ARRIVAL;
            }
        }));
    }

    @Override
    public java.util.Optional<dev.innet.protocol.spec.SpecConformance> conformance() {
        return java.util.Optional.of(new dev.innet.netcache.spec.NetCacheConformance());
    }

    @Override
    public RackNodes nodes(RackSpec rack, SwitchHandle switchHandle) {
        FamilyRack family = FamilyRack.of(rack);
        CacheControllerConfig controllerConfig = CacheControllerConfig.of(rack);
        return new RackNodes() {
            @Override
            public Node server(int host) {
                return servers.create(family.servers(), family.stores());
            }

            @Override
            public Node controller() {
                return controllers.create(controllerConfig, switchHandle);
            }

            @Override
            public KvClientLibrary client(NodeContext context, HistoryRecorder history) {
                return new NetCacheClient(context, family.clients(), history);
            }
        };
    }
}
