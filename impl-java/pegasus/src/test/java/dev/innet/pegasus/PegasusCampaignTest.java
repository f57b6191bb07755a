package dev.innet.pegasus;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.innet.protocol.RackPorts;
import dev.innet.rack.CampaignSettings;
import dev.innet.rack.Rack;
import dev.innet.rack.RackRuns;
import dev.innet.rack.workload.Workload;
import java.io.IOException;
import java.nio.file.Path;
import java.util.function.BiFunction;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import java.util.function.LongFunction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Pegasus campaigns at CI size: 3 servers, a directory much smaller than the hot set (so keys are
 * added and removed while they are read and written), lossy, duplicating and reordering links between
 * the switch and the servers; server and switch crashes. Every history must be linearizable per key
 * and lose no acknowledged write. Then each of the spec's refuted variants, recreated as an
 * implementation bug (SeededBugs), is shown caught by the monitors.
 */
class PegasusCampaignTest {
    static Rack.Builder campaign(PegasusProtocol protocol, long seed) {
        return CampaignSettings.ci().withRack(3, 4, 4).rack(RackRuns.root(), protocol, seed).out(RackRuns.QUIET);
    }

    /**
     * The seeded bugs' stress: a read-mostly workload on few keys (so replication factors grow and
     * writes are forwarded to several replicas), heavier reordering (so late copies of older writes
     * arrive after newer ones).
     */
    static Rack.Builder stress(PegasusProtocol protocol, long seed) {
        return stress(protocol, seed, 0.8);
    }

    /**
     * The stress with another read fraction: at 50% reads writes go to one server (replication factor
     * 1), so a key's newest version often lives on one non-home server, which is what early removal and
     * lost table entries need to be visible.
     */
    static Rack.Builder stress(PegasusProtocol protocol, long seed, double readFraction) {
        return CampaignSettings.ci().withRack(3, 4, 4).withWorkload(new Workload(16, 0.99, readFraction, 0.02, 16, 0))
                .withFaults(CampaignSettings.LOSSY.withReorder(0.3, 80_000))
                .rack(RackRuns.root(), protocol, seed).out(RackRuns.QUIET);
    }

    /**
     * Transition stress for the bugs of §6.4's migrated entries: a directory of 2 slots, hot threshold 2
     * and counters reset every 2 ms (keys are added and removed all the time), 20% loss (replies are
     * lost, so clients retry across transitions and meet migrated entries), 12 keys, 50% reads.
     */
    static Rack.Builder transitions(PegasusProtocol protocol, long seed) {
        return new CampaignSettings(3, 4, 2, new Workload(12, 0.99, 0.5, 0.0, 16, 0), 2, 2_000_000, 30_000_000,
                30_000_000, 20_000, CampaignSettings.LOSSY.withDrop(0.2).withReorder(0.3, 80_000))
                .rack(RackRuns.root(), protocol, seed).out(RackRuns.QUIET);
    }

    /** The control for every seeded bug: the real protocol under the same stress stays safe. */
    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 4})
    void theBugHuntingStressItselfIsSafe(long seed) throws Exception {
        double reads = seed % 2 == 0 ? 0.5 : 0.8;
        Rack rack = stress(new PegasusProtocol(), seed, reads).build();
        rack.run();
        RackRuns.assertSafe(rack, "pegasus-stress-" + reads + "-" + seed);
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3})
    void lossyLinksAndDirectoryChurnStayLinearizable(long seed) throws Exception {
        Rack rack = campaign(new PegasusProtocol(), seed).build();
        rack.run();
        var c = rack.controllerCounters();
        assertTrue(c.get("admissions") > 0 && c.get("removals") > 0, "no directory churn: " + c);
        RackRuns.assertSafe(rack, "campaign-pegasus-" + seed);
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2})
    void aServerCrashAndRestartLosesNothing(long seed, @TempDir Path durable) throws Exception {
        // a fresh directory per run: RocksDB stores left by an earlier run would hold other values
        Rack rack = campaign(new PegasusProtocol(), seed).rocksdb(durable).build();
        rack.crashHost(10_000_000, 11_000_000, rack.servers().get(0));
        rack.crashHost(18_000_000, 18_500_000, rack.servers().get(2));
        rack.run();
        RackRuns.assertSafe(rack, "pegasus-server-crash-" + seed);
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2})
    void aSwitchCrashIsRecoveredWithoutStaleReadsOrLostWrites(long seed) throws Exception {
        Rack rack = campaign(new PegasusProtocol(), seed).build();
        rack.crashSwitch(12_000_000, 12_200_000);
        rack.run();
        assertTrue(rack.controllerCounters().get("recoveries") >= 2, "no recovery: " + rack.controllerCounters());
        RackRuns.assertSafe(rack, "pegasus-switch-crash-" + seed);
    }

    /** A restarted controller relearns the directory from the switch (half-done transitions undone). */
    @Test
    void aControllerCrashRelearnsTheDirectory() throws Exception {
        Rack rack = campaign(new PegasusProtocol(), 1).build();
        rack.crashHost(10_000_000, 10_400_000, RackPorts.CONTROLLER_HOST);
        rack.run();
        assertTrue(rack.controllerCounters().get("relearned") == 1, "no relearning: " + rack.controllerCounters());
        RackRuns.assertSafe(rack, "pegasus-controller-crash");
    }

    /** The controller crashes in the middle of a switch recovery; its successor recovers again. */
    @Test
    void aControllerCrashDuringSwitchRecoveryIsRecoveredAgain() throws Exception {
        Rack rack = campaign(new PegasusProtocol(), 2).build();
        rack.crashSwitch(12_000_000, 12_100_000);
        rack.crashHost(12_300_000, 12_600_000, RackPorts.CONTROLLER_HOST);
        rack.run();
        assertTrue(rack.controllerCounters().get("recoveries") == 1, "no recovery: " + rack.controllerCounters());
        RackRuns.assertSafe(rack, "pegasus-controller-crash-in-recovery");
    }

    /**
     * Runs seeds until a monitor flags the buggy run; returns the first such seed or fails. Then the
     * control: the real protocol under the same configuration, seeds 1 up to that one, stays safe, so
     * what the monitors saw is the seeded bug and not the stress itself.
     */
    static long firstCaughtSeed(String name, LongFunction<Rack> buggy, LongFunction<Rack> real, int maxSeeds)
            throws Exception {
        for (long seed = 1; seed <= maxSeeds; seed++) {
            Rack rack = buggy.apply(seed);
            rack.run();
            if (RackRuns.verdict(rack, name + "-" + seed).violated()) {
                for (long s = 1; s <= seed; s++) {
                    Rack control = real.apply(s);
                    control.run();
                    RackRuns.assertSafe(control, name + "-control-" + s);
                }
                return seed;
            }
        }
        fail(name + ": no seed in 1.." + maxSeeds + " exposed the seeded bug; the monitors cannot see it");
        return -1;
    }


    /** A P4 variant written to a file (SeededBugs). */
    interface ProgramVariant {
        Path write() throws IOException;
    }

    /** One of the spec's refuted variants as an implementation bug, and the configuration exposing it. */
    record SeededBug(String specVariant, BiFunction<PegasusProtocol, Long, Rack.Builder> config,
            UnaryOperator<PegasusProtocol> nodes, ProgramVariant program, int maxSeeds) {
        @Override
        public String toString() {
            return specVariant;
        }
    }

    static Stream<SeededBug> seededBugs() {
        BiFunction<PegasusProtocol, Long, Rack.Builder> reads80 = (p, s) -> stress(p, s, 0.8);
        BiFunction<PegasusProtocol, Long, Rack.Builder> reads50 = (p, s) -> stress(p, s, 0.5);
        BiFunction<PegasusProtocol, Long, Rack.Builder> churn = PegasusCampaignTest::transitions;
        UnaryOperator<PegasusProtocol> realNodes = p -> p;
        return Stream.of(
                new SeededBug("MCPegasus_AcceptLower", reads80, SeededBugs::serversAcceptingLowerVersions, null, 20),
                new SeededBug("MCPegasus_NoReset", reads80, realNodes, SeededBugs::switchWithoutRsetReset, 20),
                new SeededBug("MCPegasus_AddOnLower", reads80, realNodes, SeededBugs::switchAddingOnLowerVersions, 20),
                new SeededBug("MCPegasus_EarlyRemove", reads50, realNodes, SeededBugs::switchRemovingEarly, 30),
                new SeededBug("MCPegasus_NoAMO", reads80, SeededBugs::serversWithoutClientTables, null, 20),
                new SeededBug("MCPegasus_BlindDupReply", churn, SeededBugs::blindDuplicateReplies, null, 20),
                new SeededBug("MCPegasus_ForwardUnvouched", churn, realNodes, SeededBugs::switchForwardingUnvouchedReplies,
                        20));
    }

    /** Each refuted variant of specs/pegasus/MANIFEST, recreated as an implementation bug, is caught. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("seededBugs")
    void monitorsCatchTheSpecsRefutedVariantsAsImplementationBugs(SeededBug bug) throws Exception {
        Path program = bug.program() == null ? null : bug.program().write();
        long seed = firstCaughtSeed(bug.specVariant(), s -> {
            Rack.Builder b = bug.config().apply(bug.nodes().apply(new PegasusProtocol()), s);
            return (program == null ? b : b.programSource(program)).build();
        }, s -> bug.config().apply(new PegasusProtocol(), s).build(), bug.maxSeeds());
        System.out.println(bug.specVariant() + " as an implementation bug caught at seed " + seed);
    }
}
