package dev.innet.protocol;

import dev.innet.switchapi.SwitchHandle;

/**
 * One protocol of innet, as the harness sees it: a P4 program for the rack's switch and the nodes
 * around it (storage servers, a controller with the switch OS, a client library). A protocol module
 * implements this once and registers the implementation in
 * {@code META-INF/services/dev.innet.protocol.Protocol}; the harness finds it through
 * {@link ProtocolRegistry} and never names a protocol class (docs/adding-a-protocol.md).
 *
 * <p>Implementations are immutable values: a protocol's own settings (FarReach's snapshot period, a
 * monitor's hooks) are set with its own {@code with...} methods by code that knows the protocol, and
 * the registry's instance carries the defaults.
 */
public interface Protocol {
    /** The name users type ({@code --program farreach}): lower case, unique in the registry. */
    String name();

    /** One line for listings: what the switch does in this protocol. */
    String summary();

    /** The switch's P4 program, relative to the repository root ({@code p4/farreach.p4}). */
    String p4Program();

    /** Whether the switch answers some client operations itself (a cache); reports show hit ratios then. */
    boolean servesFromSwitch();

    /**
     * The nodes of one rack run. Called once per run; the returned object then builds a fresh node for
     * each (re)start of a host. {@code switchHandle} is the controller's connection to the switch's
     * control plane (it changes generation when the switch restarts).
     */
    RackNodes nodes(RackSpec rack, SwitchHandle switchHandle);

    /**
     * The switches of a run and their cabling. One ToR with every host on it by default; a protocol
     * whose switches form a network (DistCache's spine and leaf layers) returns its own shape. Every
     * switch runs {@link #p4Program()}.
     */
    default Topology topology(RackSpec rack) {
        return Topology.singleSwitch(rack);
    }

    /**
     * The nodes of a run on {@code topology}, with one control-plane handle per switch (by name). The
     * default serves one-switch protocols through {@link #nodes(RackSpec, SwitchHandle)}.
     */
    default RackNodes nodes(RackSpec rack, Topology topology, java.util.Map<String, SwitchHandle> switchHandles) {
        if (topology.switches().size() != 1) {
            throw new IllegalStateException(name() + " runs on one switch, not on " + topology.switches());
        }
        return nodes(rack, switchHandles.get(topology.switches().get(0)));
    }

    /**
     * The hot threshold a live rack runs with ({@code RackSpec.hotThreshold}); 0 (the default) leaves the P4
     * program's own. A protocol whose program's default needs more reads per counter period than a live
     * rack's workload gives one key lowers it, so that the campaigns exercise its cache.
     */
    default int liveHotThreshold() {
        return 0;
    }

    /**
     * The crashes this protocol implements recovery from, which {@code ./innet sim --crashes} schedules in its
     * runs ({@code CrashPlan}); empty (the default): the protocol has no recovery to exercise. FarReach, DistCache
     * and Pegasus have crash set-ups of their own in {@code SimMain} (snapshots, a spine, a whole rack) and do not
     * use this.
     */
    default java.util.Set<CrashKind> recoverableCrashes() {
        return java.util.Set.of();
    }

    /**
     * This protocol as simulated campaigns ({@code ./innet sim}) run it: settings under which paths that the
     * defaults make rare are common, so that the campaign's checks reach them (the visibility layer: keys that
     * collide in a few switch slots and fingerprints, so that fallbacks, held replies and failed key validations
     * happen). The default: this protocol unchanged.
     */
    default Protocol forCampaigns() {
        return this;
    }

    /** What {@link #forCampaigns} changes, in a few words for a campaign's header; empty when it changes nothing. */
    default String campaignChanges() {
        return "";
    }

    /**
     * Whether the protocol's guarantees hold on a network that duplicates packets. False for a protocol
     * whose servers apply a duplicated write twice, so that a late copy can overwrite a newer write (LaKe:
     * memcached over UDP has no duplicate suppression). Campaigns run such protocols with the same faults
     * minus duplication ({@code CampaignSettings.rack}).
     */
    default boolean toleratesDuplicatedPackets() {
        return true;
    }

    /**
     * Whether trace validation of this protocol reads the switch's UDP frames that are not innet messages
     * (LaKe's memcached datagrams): the rack then records each frame the switch processed and sent as a
     * {@code switchUdpIn}/{@code switchUdpOut} event (docs/conformance.md). Off by default: the other
     * converters do not expect those events.
     */
    default boolean tracesSwitchUdpFrames() {
        return false;
    }

    /**
     * The UDP ports each role's hosts listen on and send from. The simulator does not need them (it
     * delivers by host); a live rack binds them ({@code live.HostMain}) and records them in its plan.
     * The default is the key-value family's (FarReach, NetCache, no-cache); a protocol on ports of its own
     * overrides this.
     */
    default HostPorts hostPorts() {
        return HostPorts.KEY_VALUE_FAMILY;
    }

    /**
     * The program live racks run on the server hosts instead of {@link RackNodes#server}, if the
     * protocol's servers are an existing program (LaKe: the real memcached); empty for protocols whose
     * servers are their own nodes (docs/live-rack.md).
     */
    default java.util.Optional<ExternalServer> externalServer() {
        return java.util.Optional.empty();
    }

    /**
     * The simulator's timing of the switch: for each memory the P4 program places register arrays in
     * ({@code @innet_memory("NAME")}), the nanoseconds a packet's pass takes when it touches that memory
     * (LaKe: its on-chip first layer and the second layer standing in for NetFPGA's DRAM). A pass is
     * delayed by the sum over the memories it touched; a port's frames keep their order. Empty (the
     * default): the switch takes no time, as every other protocol's. Live racks ignore it: p4sim on
     * real interfaces takes the time it takes.
     */
    default java.util.Map<String, Long> switchMemoryNanos() {
        return java.util.Map.of();
    }

    /**
     * The value length workloads should write for the switch to act on them (LaKe caches 32-byte values
     * only); 0: any length. Live workloads pad their unique values to it.
     */
    default int workloadValueBytes() {
        return 0;
    }

    /**
     * Test-only bug: servers apply the writes the switch numbered in arrival order, as if sequence numbers
     * (Pegasus: the versions the switch stamps) did not exist (FarReach's and NetCache's BugServerIgnoresSeq,
     * Pegasus's BugAcceptLower). A live rack seeds it (rack up --seeded-bug) so that trace validation has a
     * real run to reject.
     */
    String SERVERS_IGNORING_SEQUENCE_NUMBERS = "server-ignores-seq";

    /**
     * Test-only: the visibility layer's data nodes append a retried or duplicated write again with a new timestamp
     * instead of answering with the position it already has (Visibility.tla's BugRestamp).
     */
    String DATA_NODES_RESTAMPING_RETRIES = "data-node-restamps";

    /**
     * Test-only: the visibility layer's data nodes replay the oldest entry of each key to a rebuilding metadata
     * node instead of the newest, so a metadata node rebuilt after its crash indexes stale log addresses (a
     * crash-recovery bug: without a metadata node crash the index is never rebuilt from non-empty logs).
     */
    String DATA_NODES_REPLAYING_OLDEST = "data-node-replays-oldest";

    /**
     * Test-only: DistCache's servers apply a write, acknowledge it and update the cached copies at once, without
     * invalidating the copies first (DistCache.tla's BugSinglePhase).
     */
    String SERVERS_SKIPPING_PHASE_ONE = "server-single-phase";

    /**
     * Test-only, in the switch: LaKe's lake.p4 leaves a slot's copy of a key valid when a reply behind the slot's fence
     * is refused, instead of invalidating it (Lake.tla's BugKeepOnReject).
     */
    String SWITCH_KEEPING_COPIES_ON_REJECT = "switch-keeps-on-reject";

    /** The switch-program bugs {@link #withSeededProgramBug} may know. */
    java.util.List<String> SEEDED_PROGRAM_BUGS = java.util.List.of(SWITCH_KEEPING_COPIES_ON_REJECT);

    /**
     * The source of this protocol's P4 program ({@link #p4Program}) with the named test-only bug seeded, if it has that
     * bug (a live rack's hidden --seeded-bug that lives in the switch: p4sim runs the changed program); empty by default.
     *
     * @throws IllegalArgumentException the source no longer has the text the bug changes
     */
    default java.util.Optional<String> withSeededProgramBug(String bug, String source) {
        return java.util.Optional.empty();
    }

    /** The protocol bugs {@link #withSeededBug} may know (each protocol has at most some of them). */
    java.util.List<String> SEEDED_PROTOCOL_BUGS = java.util.List.of(SERVERS_IGNORING_SEQUENCE_NUMBERS,
            DATA_NODES_RESTAMPING_RETRIES, DATA_NODES_REPLAYING_OLDEST, SERVERS_SKIPPING_PHASE_ONE);

    /**
     * This protocol with the named test-only bug seeded, if it has that bug (a live rack's hidden
     * --seeded-bug: real processes run it, so the bug is real code, reached only through this); empty by default.
     */
    default java.util.Optional<Protocol> withSeededBug(String bug) {
        return java.util.Optional.empty();
    }

    /** The protocol's spec and its replay on the implementation, if it has them (docs/conformance.md). */
    default java.util.Optional<dev.innet.protocol.spec.SpecConformance> conformance() {
        return java.util.Optional.empty();
    }
}
