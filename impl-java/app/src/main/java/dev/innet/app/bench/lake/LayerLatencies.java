package dev.innet.app.bench.lake;

import dev.innet.lake.LakeProtocol;
import dev.innet.lake.LakeSlots;
import dev.innet.protocol.KvResult;
import dev.innet.rack.Rack;
import dev.innet.rack.workload.DriverClient;
import dev.innet.wire.InnetMessage;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One GET answered by each of LaKe's layers and one miss, on a simulated rack (lake.p4 on p4sim, the
 * simulator's memcached, clean links), each alone, and how long each took from the client's request to
 * its reply. With {@link LakeProtocol}'s switch timing, the differences from the same run without it
 * are the latencies the simulator charges the device (docs/lake.md, "Switch timing in the simulator").
 */
public final class LayerLatencies {
    /** Client-observed latencies, in nanoseconds. */
    public record Figures(long firstLayerHit, long secondLayerHit, long miss) {}

    private LayerLatencies() {}

    /**
     * @throws IllegalStateException if a step was not answered as the scenario needs (the first two GETs
     *     by LaKe with the written value, the third "not found"): the figures would not be per layer
     */
    public static Figures measure(Path root, LakeProtocol protocol) {
        byte[] a = InnetMessage.key("timing-a");
        byte[] b = keySharingOnlyTheFirstLayerSlot(a);
        byte[] absent = InnetMessage.key("timing-absent");
        Rack rack = Rack.builder(root, 5).protocol(protocol).driverClients().out(new PrintStream(PrintStream.nullOutputStream()))
                .build();
        rack.advance(1_000_000); // the switch OS programs the switch
        int client = rack.clients().get(0);
        List<KvResult> results = new ArrayList<>();
        op(rack, client, DriverClient.Kind.PUT, a, value('a'), results); // the SET's reply fills both layers with a
        long l1 = op(rack, client, DriverClient.Kind.GET, a, null, results);
        op(rack, client, DriverClient.Kind.PUT, b, value('b'), results); // b takes a's first-layer slot; a stays in the second
        long l2 = op(rack, client, DriverClient.Kind.GET, a, null, results);
        long miss = op(rack, client, DriverClient.Kind.GET, absent, null, results);
        require(results.size() == 5, "an operation did not complete: " + results);
        require(results.get(1).fromSwitch() && Arrays.equals(value('a'), results.get(1).value()),
                "the first GET was not answered by LaKe with the value written: " + results.get(1));
        require(results.get(3).fromSwitch() && Arrays.equals(value('a'), results.get(3).value()),
                "the GET after the slot was taken was not answered by LaKe's second layer: " + results.get(3));
        require(results.get(4).outcome() == KvResult.Outcome.NOT_FOUND, "the GET of an absent key: " + results.get(4));
        return new Figures(l1, l2, miss);
    }

    /** Runs one operation alone (2 ms of simulated time) and returns its latency. */
    private static long op(Rack rack, int client, DriverClient.Kind kind, byte[] key, byte[] value, List<KvResult> results) {
        long start = rack.simulation().now();
        long[] latency = {-1};
        rack.submit(client, kind, key, value, r -> {
            results.add(r);
            latency[0] = rack.simulation().now() - start;
        });
        rack.advance(2_000_000);
        return latency[0];
    }

    /** A 16-byte key in the first-layer slot of {@code key} and another second-layer slot. */
    static byte[] keySharingOnlyTheFirstLayerSlot(byte[] key) {
        for (int i = 0; ; i++) {
            byte[] candidate = InnetMessage.key("timing-b" + i);
            if (LakeSlots.l1Slot(candidate) == LakeSlots.l1Slot(key) && LakeSlots.l2Slot(candidate) != LakeSlots.l2Slot(key)) {
                return candidate;
            }
        }
    }

    private static byte[] value(char c) {
        byte[] v = new byte[32]; // LaKe caches 32-byte values only
        Arrays.fill(v, (byte) c);
        return v;
    }

    private static void require(boolean ok, String what) {
        if (!ok) {
            throw new IllegalStateException(what);
        }
    }
}
