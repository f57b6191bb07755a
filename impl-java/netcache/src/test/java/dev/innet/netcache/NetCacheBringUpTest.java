package dev.innet.netcache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.innet.kv.cache.CacheControlNames;
import dev.innet.kv.cache.CacheRegisters;
import dev.innet.rack.Rack;
import dev.innet.rack.RackRuns;
import dev.innet.rack.workload.Workload;
import dev.innet.rack.workload.WorkloadClient;
import dev.innet.switchapi.SwitchControl;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A benchmark's load phase that begins before the controller has programmed the switch
 * (docs/benchmarks.md, "NetCache keys written before the switch is up stay invalid").
 */
class NetCacheBringUpTest {
    private static final int KEYS = 4;

    /**
     * The load phase starts at 1 ms; a control step of 2 ms makes the controller program the switch only
     * after that, so the first load write of every client meets a switch with no routes and is dropped.
     * NetCache's clients do not retry writes, so unless the load phase writes the key again it never
     * reaches a server: the key stays absent, every read of the cached key is a GET_FOR_CACHE answered
     * NOT_FOUND, and the record is never valid (netcache.p4 NC-9). Liveness asked here: once the load
     * has settled and the read-only workload has read every key, each preloaded key is stored and its
     * cached record is valid, i.e. reads are answered by the switch.
     */
    @Test
    void loadWritesMadeBeforeTheSwitchIsProgrammedStillLeaveEveryCachedKeyValid() throws Exception {
        List<byte[]> hotKeys = new ArrayList<>();
        for (int i = 0; i < KEYS; i++) {
            hotKeys.add(WorkloadClient.keyOf(i));
        }
        Workload readOnly = new Workload(KEYS, 0.99, 1.0, 0, 16, 0);
        Rack rack = Rack.builder(RackRuns.root(), 11).protocol(new NetCacheProtocol()).clients(KEYS)
                .cacheCapacity(KEYS).workload(readOnly).preload(hotKeys).loadKeys(hotKeys)
                .controlStepNanos(2_000_000).chaosNanos(30_000_000).quietNanos(5_000_000).out(RackRuns.QUIET)
                .build();
        rack.run();

        assertEquals(1L, rack.controllerCounters().get("switchBringUps"), "one bring-up, no restart");
        SwitchControl control = rack.switchHandle("tor").control();
        for (byte[] key : hotKeys) {
            String name = new String(key).trim();
            boolean stored = rack.servers().stream()
                    .anyMatch(s -> ((NetCacheServer) rack.server(s)).storedRecord(key).isPresent());
            assertTrue(stored, name + ": its load write never reached a server");
            int index = CacheRegisters.indexOf(control, key);
            assertTrue(index >= 0, name + " is not cached");
            assertEquals(1, control.registerRead(CacheControlNames.RECORD_VALID, index).intValue(),
                    name + ": cached record still invalid after the workload read it");
        }
        assertTrue(rack.stats().cacheHits > 0, "no read answered by the switch");
        RackRuns.assertSafe(rack, "netcache-bring-up-load");
    }
}
