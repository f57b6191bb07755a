package dev.innet.pegasus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.innet.pegasus.controller.PegasusController;
import dev.innet.rack.Rack;
import dev.innet.rack.RackRuns;
import org.junit.jupiter.api.Test;

/**
 * Issue 16: a key marked for removal leaves the directory only on a home WRITE-REPLY at or above the mark
 * (§6.3). A key marked and then never written again (and, under at-most-once, one whose only write after
 * the mark is a retry answered from home's client table with its older version) keeps its slot marked for
 * ever. The controller ends such a removal with a rewrite of the rack's newest copy under the transition
 * pause ({@code RemovalRewrite}; the spec's RemovalRewriteAtTail, specs/pegasus/PegasusChain.tla). Run on
 * the transition stress (2 directory slots, keys marked all the time, lossy links) whose clients stop at
 * the end of the chaos phase: the quiet phase then has no writes, so a mark left then is stuck.
 */
class RemovalRewriteTest {
    private static final int SLOTS = 2;
    private static final long SEEDS = 3;

    private static PegasusProtocol withoutTheFix() {
        return new PegasusProtocol().withControllers((config, handle) -> new PegasusController(config, handle) {
            @Override
            protected boolean endsStuckRemovals() {
                return false;
            }
        });
    }

    /**
     * Rewrites at the first period's end after the mark, so that they race the key's client writes; with
     * {@code pause} false, the spec's BugRewriteUncond.
     */
    private static PegasusProtocol eagerRewrites(boolean pause) {
        return new PegasusProtocol().withControllers((config, handle) -> new PegasusController(config, handle) {
            @Override
            protected int removalRewritePeriods() {
                return 1;
            }

            @Override
            protected boolean pausesRemovalRewrite() {
                return pause;
            }
        });
    }

    /** Slots the switch still holds marked for removal after the run. */
    private static int markedSlots(Rack rack) {
        var control = rack.switchHandle("tor").control();
        int marked = 0;
        for (int slot = 0; slot < SLOTS; slot++) {
            if (control.registerRead("MyIngress.key_state", slot).intValue() == 2) {
                marked++;
            }
        }
        return marked;
    }

    /** Without the fix, a removal marked late in the run never ends: the stall of the LIMITATION model. */
    @Test
    void withoutTheRewriteAMarkedKeyNobodyWritesKeepsItsSlot() throws Exception {
        int stuck = 0;
        for (long seed = 1; seed <= SEEDS; seed++) {
            Rack rack = PegasusCampaignTest.transitions(withoutTheFix(), seed).build();
            rack.run();
            RackRuns.assertSafe(rack, "pegasus-removal-nofix-" + seed);
            stuck += markedSlots(rack);
        }
        assertTrue(stuck > 0, "no removal was left pending: the scenario does not reproduce the stall");
        System.out.println("issue 16 without the fix: " + stuck + " slots still marked after " + SEEDS + " runs");
    }

    /**
     * The spec's BugRewriteUncond as an implementation bug: the rewrite without the pause and drain. A
     * client write of the key stamped just before the rewrite and reordered behind it on the way to home is
     * acknowledged as superseded, and reads return the rewritten older value (a lost write).
     */
    @Test
    void theRewriteWithoutThePauseLosesAWrite() throws Exception {
        long seed = PegasusCampaignTest.firstCaughtSeed("MCPegasusChain_RewriteUncond",
                s -> PegasusCampaignTest.transitions(eagerRewrites(false), s).build(),
                s -> PegasusCampaignTest.transitions(eagerRewrites(true), s).build(), 40);
        System.out.println("MCPegasusChain_RewriteUncond as an implementation bug caught at seed " + seed);
    }

    /** With the fix every removal ends, no write is lost and the history stays linearizable. */
    @Test
    void theRewriteEndsEveryPendingRemovalSafely() throws Exception {
        long rewrites = 0;
        for (long seed = 1; seed <= SEEDS; seed++) {
            Rack rack = PegasusCampaignTest.transitions(new PegasusProtocol(), seed).build();
            rack.run();
            RackRuns.assertSafe(rack, "pegasus-removal-rewrite-" + seed);
            assertEquals(0, markedSlots(rack), "seed " + seed + ": a removal still pending: " + rack.controllerCounters());
            rewrites += rack.controllerCounters().get("removalRewrites");
        }
        assertTrue(rewrites > 0, "no removal was ended by a rewrite");
        System.out.println("issue 16 with the fix: " + rewrites + " removals ended by a rewrite in " + SEEDS + " runs");
    }
}
