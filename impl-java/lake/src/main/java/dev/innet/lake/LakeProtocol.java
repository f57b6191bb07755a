package dev.innet.lake;

import dev.innet.lake.client.LakeClient;
import dev.innet.lake.controller.LakeSwitchOs;
import dev.innet.lake.host.MemcachedHost;
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

/**
 * LaKe as the harness runs it (docs/lake.md): p4/lake.p4 on the switch, memcached on the server
 * hosts (simulated: {@link MemcachedHost}), memcached clients over UDP, and a switch OS that seeds the
 * tag counter and installs forwarding. The paper's LaKe is a NIC in front of one host; a rack with
 * several memcached hosts has one LaKe data plane in front of all of them.
 */
public final class LakeProtocol implements Protocol {
    static final int CLIENT_PORT = 40000;
    static final int MAX_GET_ATTEMPTS = 5;
    static final long SWITCH_OS_POLL_NANOS = 200_000;
    static final int CACHEABLE_VALUE_BYTES = 32;

    /** Whether the simulated switch takes the paper's per-layer latencies ({@link #switchMemoryNanos}). */
    private final boolean switchTiming;

    public LakeProtocol() {
        this(true);
    }

    private LakeProtocol(boolean switchTiming) {
        this.switchTiming = switchTiming;
    }

    /** LaKe on a simulated switch that takes no time, as every other protocol's (a baseline for the timing). */
    public static LakeProtocol withoutSwitchTiming() {
        return new LakeProtocol(false);
    }

    @Override
    public String name() {
        return "lake";
    }

    @Override
    public String summary() {
        return "LaKe: two-layer memcached cache in the data plane, write-through to memcached";
    }

    @Override
    public String p4Program() {
        return "p4/lake.p4";
    }

    /** What lake.p4 does with a slot holding the key of a reply it refuses to fill from (behind the fence). */
    private static final String INVALIDATE_ON_REJECT = "} else if (key == meta.reply_key) {";

    /**
     * {@link Protocol#SWITCH_KEEPING_COPIES_ON_REJECT}: both layers keep their copy when a reply behind the fence is
     * refused (Lake.tla's BugKeepOnReject): a GET's fill taken before a newer SET's reply stays valid after memcached
     * applied the SET.
     */
    @Override
    public java.util.Optional<String> withSeededProgramBug(String bug, String source) {
        if (!bug.equals(SWITCH_KEEPING_COPIES_ON_REJECT)) {
            return java.util.Optional.empty();
        }
        int first = source.indexOf(INVALIDATE_ON_REJECT);
        int second = first < 0 ? -1 : source.indexOf(INVALIDATE_ON_REJECT, first + 1);
        if (second < 0 || source.indexOf(INVALIDATE_ON_REJECT, second + 1) >= 0) {
            throw new IllegalArgumentException("lake.p4 no longer has exactly two '" + INVALIDATE_ON_REJECT + "' (one per "
                    + "layer): the seeded bug " + bug + " must be updated");
        }
        return java.util.Optional.of(source.replace(INVALIDATE_ON_REJECT,
                "} else if (key == meta.reply_key && false) { /* seeded bug: the copy stays */"));
    }

    @Override
    public boolean servesFromSwitch() {
        return true;
    }

    /** memcached applies a duplicated SET twice (docs/lake.md, Limits). */
    @Override
    public boolean toleratesDuplicatedPackets() {
        return false;
    }

    /**
     * memcached's 11211 on the servers; clients on {@link #CLIENT_PORT}; the switch OS receives nothing
     * (a live host binds at least one socket: 11211, which no one sends to it on).
     */
    @Override
    public HostPorts hostPorts() {
        return new HostPorts(List.of(MemcachedHost.MEMCACHED_PORT), List.of(MemcachedHost.MEMCACHED_PORT),
                List.of(CLIENT_PORT));
    }

    /** Trace validation reads the switch's memcached datagrams (docs/conformance.md, "LaKe"). */
    @Override
    public boolean tracesSwitchUdpFrames() {
        return true;
    }

    /** Live racks run the real memcached on the server hosts (docs/lake.md, "Live racks"). */
    @Override
    public java.util.Optional<dev.innet.protocol.ExternalServer> externalServer() {
        return java.util.Optional.of(new dev.innet.lake.host.MemcachedProcess());
    }

    /** LaKe caches 32-byte values only (p4/lake.p4); live workloads write values of that length. */
    @Override
    public int workloadValueBytes() {
        return CACHEABLE_VALUE_BYTES;
    }

    /**
     * lake.p4's first layer lives in the memory "onchip" and its second layer in "dram"
     * ({@code @innet_memory}). A pass that touches only the first layer (a first-layer hit) takes the
     * paper's hit latency; one that also touches the second (a second-layer hit, a miss looked up there
     * before it goes to memcached, a fill) takes the paper's DRAM-hit latency. Traffic that touches
     * neither (not memcached, or keys LaKe does not cache) is not delayed: the NIC's own path is not
     * modelled.
     */
    @Override
    public java.util.Map<String, Long> switchMemoryNanos() {
        if (!switchTiming) {
            return java.util.Map.of();
        }
        return java.util.Map.of("onchip", PaperLatency.L1_HIT_NANOS, "dram", PaperLatency.L2_HIT_NANOS - PaperLatency.L1_HIT_NANOS);
    }

    /** Lake.tla replayed on lake.p4, the simulator's memcached, LaKe clients and the switch OS (docs/conformance.md). */
    @Override
    public java.util.Optional<dev.innet.protocol.spec.SpecConformance> conformance() {
        return java.util.Optional.of(new dev.innet.lake.spec.LakeConformance());
    }

    @Override
    public RackNodes nodes(RackSpec rack, SwitchHandle switchHandle) {
        return new RackNodes() {
            @Override
            public Node server(int host) {
                return new MemcachedHost();
            }

            @Override
            public Node controller() {
                return new LakeSwitchOs(rack.allHosts(), switchHandle, SWITCH_OS_POLL_NANOS);
            }

            @Override
            public KvClientLibrary client(NodeContext context, HistoryRecorder history) {
                return new LakeClient(context, rack.servers(), rack.clientTimeoutNanos(), MAX_GET_ATTEMPTS, CLIENT_PORT,
                        history);
            }
        };
    }
}
