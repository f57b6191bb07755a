package dev.innet.farreach;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import dev.innet.farreach.monitor.SnapshotMonitor;
import dev.innet.rack.CampaignSettings;
import dev.innet.rack.CrashPlan;
import dev.innet.rack.Rack;
import dev.innet.rack.RackRuns;
import dev.innet.rack.check.RunVerdict;
import java.nio.file.Path;
import java.util.List;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * Plain {@code ./innet sim} catches FarReach's seeded recovery, snapshot and durability bugs: each run
 * here is built exactly as SimMain builds a FarReach run without options ({@link CampaignSettings#sim()}:
 * faulty client and server links, values of 1..160 bytes, retried writes; {@link CrashPlan} with the
 * switch, the controller and a server; snapshots every 3 ms watched by the snapshot monitor; RocksDB
 * servers), with the default's first seeds. The real protocol is the control: the same seeds are safe.
 */
class DefaultSimCampaignTest {
    private static final long SNAPSHOT_PERIOD = 3_000_000;
    private static final int SEEDS = 3;

    @TempDir
    Path durable;

    /** One run as SimMain makes it; returns what the monitors found (empty: safe). */
    private String run(UnaryOperator<FarReachProtocol> variant, long seed, String name) throws Exception {
        return run(variant, null, seed, name);
    }

    /** With {@code program} (a P4 variant) instead of p4/farreach.p4 if not null. */
    private String run(UnaryOperator<FarReachProtocol> variant, Path program, long seed, String name) throws Exception {
        return run(variant, program, seed, name, CampaignSettings.sim());
    }

    private String run(UnaryOperator<FarReachProtocol> variant, Path program, long seed, String name,
            CampaignSettings sim) throws Exception {
        SnapshotMonitor[] monitor = new SnapshotMonitor[1];
        FarReachProtocol protocol = variant.apply(new FarReachProtocol().withSnapshotPeriodNanos(SNAPSHOT_PERIOD)
                .withHooks(h -> monitor[0] = new SnapshotMonitor(h)));
        Rack.Builder builder = sim.rack(RackRuns.root(), protocol, seed).out(RackRuns.QUIET)
                .rocksdb(durable.resolve(name + "-seed" + seed));
        if (program != null) {
            builder.programSource(program);
        }
        Rack rack = builder.build();
        CrashPlan.schedule(rack, sim.chaosNanos(), false);
        rack.run();
        List<String> snapshot = monitor[0].violations();
        RunVerdict verdict = RackRuns.verdict(rack, name + "-seed" + seed);
        if (!snapshot.isEmpty()) {
            return "snapshot monitor: " + snapshot.getFirst();
        }
        if (verdict.violated()) {
            return verdict.describe();
        }
        return verdict.safe() ? "" : "undecided: " + verdict.describe();
    }

    private void assertCaught(String name, UnaryOperator<FarReachProtocol> bug) throws Exception {
        assertCaught(name, bug, null);
    }

    private void assertCaught(String name, UnaryOperator<FarReachProtocol> bug, Path program) throws Exception {
        for (long seed = 1; seed <= SEEDS; seed++) {
            String found = run(bug, program, seed, name);
            if (!found.isEmpty() && !found.startsWith("undecided")) {
                System.out.println(name + " caught by the default campaign at seed " + seed + ": "
                        + found.substring(0, Math.min(160, found.length())));
                return;
            }
        }
        fail(name + ": the default campaign's first " + SEEDS + " seeds did not catch it");
    }

    @Test
    void theRealProtocolPassesTheDefaultCampaign() throws Exception {
        for (long seed = 1; seed <= 2; seed++) {
            assertEquals("", run(p -> p, seed, "real"), "seed " + seed);
        }
    }

    /** The seeded bugs of {@link SeededBugs} that replace a node: recovery, snapshot, durability. */
    static Stream<Arguments> nodeBugs() {
        return Stream.of(
                Arguments.of("bug-ignore-preserved", (UnaryOperator<FarReachProtocol>) SeededBugs::recoveryIgnoringPreservedRecords),
                Arguments.of("bug-counters-zero", (UnaryOperator<FarReachProtocol>) SeededBugs::recoveryLeavingCountersAtZero),
                Arguments.of("bug-no-originals", (UnaryOperator<FarReachProtocol>) SeededBugs::snapshotsWithoutFirstWriteOriginals),
                Arguments.of("bug-volatile-servers", (UnaryOperator<FarReachProtocol>) SeededBugs::serversWithVolatileStores));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("nodeBugs")
    void catchesTheSeededRecoverySnapshotAndDurabilityBugs(String name, UnaryOperator<FarReachProtocol> bug) throws Exception {
        assertCaught(name, bug);
    }

    @Test
    void catchesCopiesOfWritesNumberedAsNewWrites() throws Exception {
        assertCaught("bug-copies-renumbered", p -> p, SeededBugs.farReachNumberingEveryCopyAnew());
    }
}
