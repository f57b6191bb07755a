package dev.innet.rack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.innet.protocol.KvResult;
import dev.innet.protocol.Protocol;
import dev.innet.rack.check.RunVerdict;
import dev.innet.rack.workload.DriverClient;
import dev.innet.wire.InnetMessage;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToIntFunction;

/**
 * Keys share a caching switch's sequence-counter slots, so a slot's counter also counts other keys' writes
 * and bounds no single key. The scenario FarReach's and NetCache's shared-slot tests run on their own
 * protocols: a key written once while uncached, then writes of another key in its slot, then only reads of
 * it until it is hot, admitted, probed and filled. The fill rule must not depend on the slot's counter, or
 * the key stays unfilled for good in such a read-only phase.
 */
public final class SharedSeqSlotScenario {
    /** Reads of the hot key after the writes. */
    public static final int READS = 200;

    private SharedSeqSlotScenario() {}

    /**
     * Runs the scenario on {@code protocol}: each read is checked to return the key's value, the key to have
     * been admitted and the run ({@code runName}) to be safe. Returns the reads.
     *
     * @param slotOf the switch's sequence-counter slot of a key
     */
    public static List<KvResult> readsOfAKeyAdmittedAfterWritesInItsSlot(Protocol protocol,
            ToIntFunction<byte[]> slotOf, String runName) throws Exception {
        byte[] hot = InnetMessage.key("user0");
        byte[] sameSlot = keyInTheSlotOf(hot, slotOf);
        Rack rack = Rack.builder(RackRuns.root(), 11).protocol(protocol).driverClients().hotThreshold(8)
                .out(RackRuns.QUIET).build();
        rack.advance(1_000_000); // the controller programs the switch
        List<KvResult> writes = new ArrayList<>();
        rack.submit(rack.clients().get(0), DriverClient.Kind.PUT, hot, bytes("hot"), writes::add);
        rack.advance(500_000);
        for (int i = 0; i < 3; i++) { // the slot's counter moves past the hot key's own last write
            rack.submit(rack.clients().get(1), DriverClient.Kind.PUT, sameSlot, bytes("other" + i), writes::add);
            rack.advance(500_000);
        }
        assertEquals(4, writes.size(), "every write acknowledged: " + writes);
        assertTrue(writes.get(3).seq() > writes.get(0).seq(), "the other key's writes are numbered after the hot key's");

        List<KvResult> reads = new ArrayList<>();
        for (int i = 0; i < READS; i++) {
            rack.submit(rack.clients().get(0), DriverClient.Kind.GET, hot, null, reads::add);
            rack.advance(100_000);
        }
        assertEquals(READS, reads.size(), "every read completed");
        for (KvResult r : reads) {
            assertEquals(KvResult.Outcome.OK, r.outcome(), "read " + r);
            assertEquals("hot", new String(r.value(), StandardCharsets.UTF_8), "read " + r);
        }
        assertTrue(rack.controllerCounters().get("admissions") >= 1, "the key was admitted: " + rack.controllerCounters());
        // driver clients count nothing in the workload stats, which assertSafe requires: check the history
        RunVerdict verdict = RackRuns.verdict(rack, runName);
        assertTrue(verdict.safe(), verdict.describe());
        return reads;
    }

    /** A key other than {@code key} whose writes are numbered in the same counter slot. */
    public static byte[] keyInTheSlotOf(byte[] key, ToIntFunction<byte[]> slotOf) {
        for (int i = 0; ; i++) {
            byte[] candidate = InnetMessage.key("other" + i);
            if (slotOf.applyAsInt(candidate) == slotOf.applyAsInt(key)) {
                return candidate;
            }
        }
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
