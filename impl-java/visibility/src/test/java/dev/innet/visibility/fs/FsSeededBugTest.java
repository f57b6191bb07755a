package dev.innet.visibility.fs;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.innet.rack.Rack;
import dev.innet.rack.RackRuns;
import dev.innet.rack.check.Lincheck;
import dev.innet.rack.check.RunVerdict;
import dev.innet.sim.NodeContext;
import dev.innet.sim.history.HistoryRecorder;
import dev.innet.visibility.RackRoles;
import dev.innet.visibility.metadata.MetadataNode;
import dev.innet.visibility.wire.IndexRecord;
import org.junit.jupiter.api.Test;

/**
 * Bugs seeded into the file-system namespace, each shown NOT LINEARIZABLE by porcupine's file model in the
 * first seed of the campaign FsRackTest passes (so each test fails if the check does not catch it).
 */
class FsSeededBugTest {
    /** The metadata node applies whatever inode update arrives last, older or not (no timestamp rule). */
    static final class LastArrivalWinsMetadataNode extends MetadataNode {
        LastArrivalWinsMetadataNode(RackRoles roles) {
            super(roles, 16, roles.timeoutNanos() / 50, roles.timeoutNanos() / 25, FsApplication.INSTANCE);
        }

        @Override
        protected boolean supersedes(IndexRecord update, IndexRecord held) {
            return true;
        }
    }

    /** The client's stat takes any inode the switch answers with, without checking it is the path's. */
    static final class TrustingClient extends FsClient {
        TrustingClient(NodeContext ctx, RackRoles roles, HistoryRecorder history) {
            super(ctx, roles, history, 16, 10_000);
        }

        @Override
        protected boolean describes(Inode inode, byte[] path) {
            return true;
        }
    }

    static void caughtByPorcupine(String bug, VisibilityFsProtocol protocol) throws Exception {
        Rack rack = FsRackTest.campaign(protocol, 1).build();
        rack.run();
        RunVerdict v = RackRuns.verdict(rack, "visibility-fs-seeded-" + bug);
        System.out.println("seeded bug " + bug + ": " + v.describe());
        assertEquals(Lincheck.Verdict.NOT_LINEARIZABLE, v.linearizability(), bug + " was not caught: " + v.describe());
    }

    @Test
    void anOlderInodeAppliedOverANewerOneIsCaught() throws Exception {
        caughtByPorcupine("last-arrival-wins",
                FsRackTest.colliding().withLayer(l -> l.withMetadataNodes(LastArrivalWinsMetadataNode::new)));
    }

    @Test
    void aStatTrustingAnotherPathsSwitchEntryIsCaught() throws Exception {
        caughtByPorcupine("stat-trusts-switch", FsRackTest.colliding().withClients(TrustingClient::new));
    }
}
