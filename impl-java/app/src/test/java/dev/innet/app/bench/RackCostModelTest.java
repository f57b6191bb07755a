package dev.innet.app.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.innet.app.bench.RunObservation.HostTraffic;
import dev.innet.costmodel.Saturation;
import dev.innet.kv.KvOp;
import dev.innet.rack.SwitchTraffic.Tally;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** How observed rack traffic is priced: hand-computed saturation points for small made-up runs. */
class RackCostModelTest {
    private static Map<Integer, Tally> frames(int... opAndCount) {
        Map<Integer, Tally> m = new TreeMap<>();
        for (int i = 0; i < opAndCount.length; i += 2) {
            Tally t = new Tally();
            t.frames = opAndCount[i + 1];
            t.bytes = 100L * opAndCount[i + 1];
            m.put(opAndCount[i], t);
        }
        return m;
    }

    private static RunObservation run(long ops, long answered, List<HostTraffic> servers) {
        return new RunObservation("test", "w", servers.size(), ops, answered, ops, 0, servers,
                new HostTraffic(frames(KvOp.GET, (int) ops), frames(KvOp.GET_REPLY, (int) ops)),
                new HostTraffic(frames(), frames()), 2 * ops, 0, 0);
    }

    @Test
    void theBusiestServerBoundsThroughputAtItsStorageRate() {
        // 1000 ops: server 0 got 600 reads, server 1 300, the switch answered 100. Storage 10 us per request:
        // server 0's demand per op is 0.6 x 10 us = 6 us, so the rack saturates at 1/6us = 166,667 ops/s.
        var s0 = new HostTraffic(frames(KvOp.GET_REPLY, 600), frames(KvOp.GET, 600));
        var s1 = new HostTraffic(frames(KvOp.GET_REPLY, 300), frames(KvOp.GET, 300));
        Testbed t = new Testbed(10e-6, 1e-6, 1e-6, 2, 1e12, 0, 2, 1e9, 1e12, 24, 5e-6, 1e-6);
        Saturation sat = Saturation.of(RackCostModel.of(run(1000, 100, List.of(s0, s1)), t));
        assertEquals(1 / 6e-6, sat.opsPerSecond(), 1);
        assertEquals("server 0", sat.bottleneck());
    }

    @Test
    void reportsAndEvictionStoresCostTheServerThatDidThem() {
        // Same loads, but server 1 also sent 100 hot reports (2 us each) and stored 400 evictions (10 us):
        // server 1 now works 300 x 10 + 100 x 2 + 400 x 10 = 7,200 us per 1000 ops against server 0's 6,000 us,
        // so server 1 becomes the bottleneck at 1/7.2us.
        Testbed t = new Testbed(10e-6, 1e-6, 2e-6, 2, 1e12, 0, 2, 1e9, 1e12, 24, 5e-6, 1e-6);
        var s0 = new HostTraffic(frames(KvOp.GET_REPLY, 600), frames(KvOp.GET, 600));
        var s1 = new HostTraffic(frames(KvOp.GET_REPLY, 300, KvOp.HOT_REPORT, 100),
                frames(KvOp.GET, 300, KvOp.EVICT_STORE, 400));
        Saturation sat = Saturation.of(RackCostModel.of(run(1000, 100, List.of(s0, s1)), t));
        assertEquals("server 1", sat.bottleneck());
        assertEquals(1 / 7.2e-6, sat.opsPerSecond(), 1);
    }

    @Test
    void clientMachinesBoundARackTheSwitchAnswers() {
        // Everything answered by the switch: two client machines of 1 M ops/s each bound the rack at 2 M ops/s.
        Testbed t = new Testbed(10e-6, 1e-6, 1e-6, 2, 1e12, 0, 2, 1e6, 1e12, 24, 5e-6, 1e-6);
        var idle = new HostTraffic(frames(), frames());
        Saturation sat = Saturation.of(RackCostModel.of(run(1000, 1000, List.of(idle, idle)), t));
        assertEquals(2e6, sat.opsPerSecond(), 1);
        assertTrue(sat.bottleneck().startsWith("client machine"), sat.bottleneck());
    }

    @Test
    void anEmptyRunIsRefusedWithItsName() {
        Testbed t = Testbed.farReachPaper();
        var e = assertThrows(IllegalArgumentException.class, () -> RackCostModel.of(run(0, 0, List.of()), t));
        assertTrue(e.getMessage().contains("completed no operations"), e.getMessage());
    }
}
