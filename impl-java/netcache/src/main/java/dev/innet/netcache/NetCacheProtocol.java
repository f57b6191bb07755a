package dev.innet.netcache;

import dev.innet.kv.cache.CacheControllerConfig;
import dev.innet.kv.FamilyRack;
import dev.innet.kv.client.KvClient;
import dev.innet.kv.server.StorageServer;
import dev.innet.protocol.KvClientLibrary;
import dev.innet.protocol.Protocol;
import dev.innet.protocol.RackNodes;
import dev.innet.protocol.RackSpec;
import dev.innet.sim.Node;
import dev.innet.sim.NodeContext;
import dev.innet.sim.history.HistoryRecorder;
import dev.innet.switchapi.SwitchHandle;

/** NetCache as the harness runs it: p4/netcache.p4, the family's storage servers and client, {@link NetCacheController}. */
public final class NetCacheProtocol implements Protocol {
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
                return new StorageServer(family.servers(), family.stores());
            }

            @Override
            public Node controller() {
                return new NetCacheController(controllerConfig, switchHandle);
            }

            @Override
            public KvClientLibrary client(NodeContext context, HistoryRecorder history) {
                return new KvClient(context, family.clients(), history);
            }
        };
    }
}
