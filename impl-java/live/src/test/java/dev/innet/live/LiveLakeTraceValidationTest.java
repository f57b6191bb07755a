package dev.innet.live;

import static dev.innet.live.LiveValidationRacks.down;
import static dev.innet.live.LiveValidationRacks.uniqueName;
import static dev.innet.live.LiveValidationRacks.validate;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.innet.protocol.Protocol;
import java.nio.file.Files;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Trace validation of live LaKe racks ({@code rack validate}, LakeTrace.tla) in front of the real memcached, which
 * records no trace events: its steps are read off the switch's frames (lake's MemcachedStepsFromSwitch; docs/live-rack.md).
 * A clean rack (2 memcached, 2 clients, 400 operations on 2 keys, so GETs and SETs of a key often overlap) is
 * accepted, with memcached's steps inferred; a rack whose lake.p4 keeps a copy valid when it refuses a reply behind
 * the fence ({@code switch-keeps-on-reject}, Lake.tla's BugKeepOnReject: a GET's fill outlives a newer SET) is
 * rejected at a GET the switch answered, within 3 rounds of 400 operations. Skipped (not passed) where the machine
 * forbids network namespaces; needs memcached (./innet setup installs it).
 */
class LiveLakeTraceValidationTest {
    private static final int ROUNDS = 3;

    @BeforeAll
    static void requireNamespaces() {
        NetworkNamespaces.assumeAllowed("innet");
    }

    @Test
    void aCleanRunIsAcceptedAndASwitchKeepingCopiesOnRejectIsRejectedAtAHit() throws Exception {
        String clean = uniqueName("llr");
        RackLayout layout = LiveValidationRacks.up(clean, "lake", 2, 2, "");
        try {
            RackRun.run(layout, 400, 2, 120_000, System.out);
            LiveValidationRacks.Validation real = validate(clean);
            assertEquals(RackMain.Validate.EXIT_ACCEPTED, real.exit(), real.out());
            String run = Files.readString(LiveRunValidation.directoryOf(layout).resolve("run.ndjson"));
            assertTrue(run.contains("\"event\":\"mcRequest\",\"inferred\":true,\"op\":\"set\"")
                    && run.contains("\"event\":\"mcRequest\",\"inferred\":true,\"op\":\"get\""), "memcached's steps were inferred");
        } finally {
            down(clean);
        }
        String buggy = uniqueName("llb");
        layout = LiveValidationRacks.up(buggy, "lake", 2, 2, Protocol.SWITCH_KEEPING_COPIES_ON_REJECT);
        try {
            assertTrue(Files.readString(layout.stateDir().resolve("seeded").resolve("lake.p4")).contains("seeded bug"),
                    "p4sim runs lake.p4 with the seeded bug");
            LiveValidationRacks.Validation v = null;
            for (int round = 1; round <= ROUNDS && (v == null || v.exit() == RackMain.Validate.EXIT_ACCEPTED); round++) {
                RackRun.run(layout, 400, 2, 120_000, System.out);
                v = validate(buggy);
            }
            assertEquals(RackMain.Validate.EXIT_REJECTED, v.exit(), v.out());
            assertTrue(v.out().contains("matches event") && v.out().contains(": e=getHit"),
                    "rejected at a GET answered from the copy the switch should have invalidated: " + v.out());
        } finally {
            down(buggy);
        }
    }
}
