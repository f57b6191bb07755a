package dev.innet.nocache;

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

/** The no-cache baseline as the harness runs it: p4/nocache.p4 forwards, the family's servers answer everything. */
public final class NoCacheProtocol implements Protocol {
    @Override
    public String name() {
        return "nocache";
    }

    @Override
    public String summary() {
        return "no cache (baseline): the switch only forwards";
    }

    @Override
    public String p4Program() {
        return "p4/nocache.p4";
    }

    @Override
    public boolean servesFromSwitch() {
        return false;
    }

    @Override
    public RackNodes nodes(RackSpec rack, SwitchHandle switchHandle) {
        FamilyRack family = FamilyRack.of(rack);
        return new RackNodes() {
            @Override
            public Node server(int host) {
                return new StorageServer(family.servers(), family.stores());
            }

            @Override
            public Node controller() {
                return new NoCacheSwitchOs(rack.allHosts(), switchHandle, 200_000);
            }

            @Override
            public KvClientLibrary client(NodeContext context, HistoryRecorder history) {
                return new KvClient(context, family.clients(), history);
            }
        };
    }
}
