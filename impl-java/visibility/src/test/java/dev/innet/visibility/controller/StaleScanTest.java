package dev.innet.visibility.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.innet.p4sim.P4Sim;
import dev.innet.p4sim.v1model.SwitchConfig;
import dev.innet.rack.RackRuns;
import dev.innet.switchapi.SwitchControl;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The stale-entry scan in steps (a live rack's switch OS sweeps the 65,536 slots in 16 steps instead of
 * reading them all at once): an entry is stale when it is valid with the same CurTs at two visits of its
 * slot, whichever step covers it; the simulator's one-step scan is the same rule.
 */
class StaleScanTest {
    private static SwitchControl freshSwitch() {
        return P4Sim.compile(RackRuns.root().resolve("p4/visibility.p4"), List.of(RackRuns.root().resolve("p4")))
                .instantiate(SwitchConfig.defaults().withCpuPort(-1)).control();
    }

    private static void install(SwitchControl c, int slot, long ts) {
        c.registerWrite(SwitchNames.VALID, slot, BigInteger.ONE);
        c.registerWrite(SwitchNames.CUR_TS, slot, BigInteger.valueOf(ts));
        c.registerWrite(SwitchNames.FINGERPRINT, slot, BigInteger.valueOf(0xF00 + slot));
    }

    /** Slots found stale by one whole sweep of {@code steps} steps. */
    private static List<Integer> sweep(StaleScan scan, SwitchControl c, int steps) {
        List<Integer> stale = new ArrayList<>();
        for (int i = 0; i < steps; i++) {
            scan.scanNext(c, SwitchNames.SLOTS / steps, (ext, address) -> stale.add(ext.index()));
        }
        return stale;
    }

    @Test
    void anEntryUnchangedBetweenTwoVisitsIsStaleWhicheverStepCoversIt() {
        SwitchControl c = freshSwitch();
        install(c, 5, 3);
        install(c, 40_000, 7);
        install(c, 65_535, 9);
        StaleScan scan = new StaleScan();
        assertEquals(List.of(), sweep(scan, c, 16), "a first visit finds nothing stale");
        c.registerWrite(SwitchNames.CUR_TS, 40_000, BigInteger.valueOf(8)); // a newer install in that slot
        c.registerWrite(SwitchNames.VALID, 65_535, BigInteger.ZERO); // cleared
        assertEquals(List.of(5), sweep(scan, c, 16));
        install(c, 65_535, 9); // valid again with the old CurTs: a new residence, not stale yet
        assertEquals(List.of(5, 40_000), sweep(scan, c, 16));
        assertEquals(List.of(5, 40_000, 65_535), sweep(scan, c, 16));
    }

    @Test
    void oneStepScansFindTheSameEntries() {
        SwitchControl c = freshSwitch();
        install(c, 12, 1);
        StaleScan scan = new StaleScan();
        assertEquals(0, scan.scan(c, (ext, address) -> { }));
        List<Integer> stale = new ArrayList<>();
        assertEquals(1, scan.scan(c, (ext, address) -> stale.add(ext.index())));
        assertEquals(List.of(12), stale);
        scan.forget();
        assertEquals(0, scan.scan(c, (ext, address) -> { }), "after forget every entry is on its first visit");
    }

    @Test
    void theSimulatorsPeriodIsOneStepALiveRacksSixteen() {
        assertEquals(1, VisibilitySwitchOs.sweepSteps(5_000_000L), "the paper's timeout x 10: whole table each 5 ms");
        assertEquals(2, VisibilitySwitchOs.sweepSteps(250_000_000L));
        assertEquals(16, VisibilitySwitchOs.sweepSteps(2_000_000_000L), "a live rack's 2 s: 4,096 slots every 125 ms");
    }
}
