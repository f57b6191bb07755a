package dev.innet.farreach;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.innet.farreach.controller.FarReachController;
import dev.innet.farreach.controller.Recover;
import dev.innet.kv.cache.SequenceBase;
import dev.innet.protocol.KvResult;
import dev.innet.rack.Rack;
import dev.innet.rack.RackRuns;
import dev.innet.rack.check.RunVerdict;
import dev.innet.rack.workload.DriverClient;
import dev.innet.wire.InnetMessage;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Keys share farreach.p4's sequence-counter slots (32768 slots, CRC-32 of the key), so a slot's counter also
 * counts other keys' writes. A record recovery re-admits must still be made latest by its server's fenced
 * reply after a write of another key in its slot: its own refresh bound is the incarnation's base
 * (record_last_write_seq), not the slot's counter.
 */
class FarReachSharedSeqSlotTest {
    private static final long CRASH = 6_000_000;
    private static final long RESTART = 7_000_000;

    private static List<KvResult> readsAfterRecoveryAndAWriteInTheSlot(FarReachProtocol protocol) throws Exception {
        byte[] hot = InnetMessage.key("user0");
        byte[] sameSlot = keyInTheSlotOf(hot);
        Rack rack = Rack.builder(RackRuns.root(), 7).protocol(protocol.withSnapshotPeriodNanos(2_000_000))
                .driverClients().preload(List.of(hot)).out(RackRuns.QUIET).build();
        rack.advance(1_000_000); // the controller programs the switch and admits the key
        List<KvResult> writes = new ArrayList<>();
        rack.submit(rack.clients().get(0), DriverClient.Kind.PUT, hot, bytes("hot"), writes::add);
        rack.advance(4_000_000); // absorbed by the cache, then a snapshot takes it
        rack.crashSwitch(CRASH, RESTART);
        rack.advance(10_000_000); // the switch restarts and recovery re-admits the key, outdated
        assertEquals(1L, rack.controllerCounters().get("recoveries"), "one recovery: " + rack.controllerCounters());
        rack.submit(rack.clients().get(1), DriverClient.Kind.PUT, sameSlot, bytes("other"), writes::add);
        rack.advance(1_000_000);
        assertEquals(2, writes.size(), "both writes acknowledged: " + writes);
        assertTrue(writes.get(1).seq() > writes.get(0).seq(), "the other key is numbered in the new incarnation");

        List<KvResult> reads = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            rack.submit(rack.clients().get(0), DriverClient.Kind.GET, hot, null, reads::add);
            rack.advance(500_000);
        }
        for (KvResult r : reads) {
            assertEquals(KvResult.Outcome.OK, r.outcome(), "read " + r);
            assertEquals("hot", new String(r.value(), StandardCharsets.UTF_8), "read " + r);
        }
        RunVerdict verdict = RackRuns.verdict(rack, "farreach-shared-seq-slot");
        assertTrue(verdict.safe(), verdict.describe());
        return reads;
    }

    @Test
    void aRecoveredRecordIsMadeLatestDespiteAWriteOfAnotherKeyInItsSlot() throws Exception {
        List<KvResult> reads = readsAfterRecoveryAndAWriteInTheSlot(new FarReachProtocol());
        assertTrue(reads.get(reads.size() - 1).fromSwitch(), "reads of the recovered key still go to a server: " + reads);
    }

    @Test
    void seededBugTheSlotCounterAsTheOnlyBoundKeepsItOutdated() throws Exception {
        FarReachProtocol slotBound = new FarReachProtocol().withControllers((config, settings, handle, hooks) ->
                new FarReachController(config, settings, handle, hooks) {
                    @Override
                    protected Recover newRecover(boolean resumeAtCollection) {
                        return new Recover(this, resumeAtCollection) {
                            @Override
                            protected long recoveredRecordBound(long fence) {
                                return 0; // seeded bug: the slot's counter bounds the re-admitted record
                            }
                        };
                    }
                });
        List<KvResult> reads = readsAfterRecoveryAndAWriteInTheSlot(slotBound);
        assertTrue(reads.stream().noneMatch(KvResult::fromSwitch), "a read was served by the switch: " + reads);
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** A key other than {@code key} whose writes are numbered in the same counter slot. */
    private static byte[] keyInTheSlotOf(byte[] key) {
        for (int i = 0; ; i++) {
            byte[] candidate = InnetMessage.key("other" + i);
            if (SequenceBase.slotOf(candidate) == SequenceBase.slotOf(key)) {
                return candidate;
            }
        }
    }
}
