package dev.innet.visibility;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.innet.rack.RackRuns;
import dev.innet.rack.check.Lincheck;
import dev.innet.sim.NodeContext;
import dev.innet.sim.history.HistoryRecorder;
import dev.innet.visibility.ScriptedRack.Flight;
import dev.innet.visibility.controller.VisibilitySwitchOs;
import dev.innet.visibility.datanode.DataNode;
import dev.innet.visibility.fs.FsApplication;
import dev.innet.visibility.fs.FsClient;
import dev.innet.visibility.fs.FsResult;
import dev.innet.visibility.wire.VisOp;
import dev.innet.wire.InnetMessage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/**
 * The file-system namespace reports "exists" only once the existence is committed (docs/visibility.md,
 * "The second application"), on a schedule the random campaigns did not produce in 6 seeds: a create's
 * reply is late on the data node's side, so its inode is in no switch entry and not at the metadata node,
 * while a second create of the path is answered EXISTS and falls back (the slot is busy with another
 * path's entry). The real client commits the existing inode by the second phase before reporting, and a
 * stat then finds the path; a client that reports EXISTS at once lets the stat find nothing, which
 * porcupine's file model rejects.
 */
class FsExistsCommitTest {
    static final byte[] P = InnetMessage.key("/d0/f0");
    static final byte[] Q = InnetMessage.key("/d0/f1");
    static final int C1 = 3;
    static final int C2 = 4;
    static final int C3 = 5;

    /** Reports a create that found the path as soon as the data node's reply says so. */
    static final class ReportsExistsAtOnce extends FsClient {
        ReportsExistsAtOnce(NodeContext ctx, RackRoles roles, HistoryRecorder history) {
            super(ctx, roles, history, 16, 100);
        }

        @Override
        protected boolean commitsAtOnce(InnetMessage writeReply) {
            return super.commitsAtOnce(writeReply) || (writeReply.flags() & VisOp.FLAG_EXISTS) != 0;
        }
    }

    /** Runs the schedule; returns the stat's outcome and porcupine's verdict on the whole history. */
    static String run(ScriptedRack.FsClients clients, String name) throws Exception {
        ScriptedRack rack = new ScriptedRack(SpecCounterexampleTest.program(), FsApplication.INSTANCE,
                roles -> new DataNode(roles, FsApplication.INSTANCE), VisibilitySwitchOs.RESYNC, 3, clients);
        rack.runAll();
        FsResult[] stat = new FsResult[1];
        // Q is created and its inode stays in the switch (its asynchronous update is held): slot 0 is busy
        rack.fsClient(C3).create(Q, r -> {});
        rack.run(SpecCounterexampleTest.ASYNC_UPDATE);
        rack.advance(1_000);
        // C1 creates P; the data node appends it, but its reply is late
        Predicate<Flight> lateCreate = SpecCounterexampleTest.writeReplyOf(1, C1);
        rack.fsClient(C1).create(P, r -> {});
        rack.run(SpecCounterexampleTest.ASYNC_UPDATE.or(lateCreate));
        rack.advance(1_000);
        // C2 creates P too: EXISTS, not installed (slot busy), so the real client runs the second phase, whose
        // reply the switch holds until Q's entry clears
        rack.fsClient(C2).create(P, r -> {});
        rack.run(SpecCounterexampleTest.ASYNC_UPDATE.or(lateCreate).or(SpecCounterexampleTest.SECOND_PHASE_REPLY));
        rack.advance(1_000);
        rack.fsClient(C3).stat(P, r -> stat[0] = r);
        rack.run(SpecCounterexampleTest.ASYNC_UPDATE.or(lateCreate).or(SpecCounterexampleTest.SECOND_PHASE_REPLY));
        rack.advance(1_000);
        rack.runAll(); // everything delivered: every operation completes
        Path history = Path.of("target", "histories", name + ".jsonl");
        Files.createDirectories(history.getParent());
        Files.writeString(history, rack.history.toJsonLines());
        Lincheck.Result verdict = Lincheck.check(RackRuns.root(), history, null, 30);
        return "stat " + (stat[0] == null ? "pending" : stat[0].outcome()) + ", " + verdict.verdict();
    }

    @Test
    void existsIsReportedOnlyOnceCommitted() throws Exception {
        assertEquals("stat OK, LINEARIZABLE", run((ctx, roles, history) -> new FsClient(ctx, roles, history, 16, 100), "fs-exists-commit"));
    }

    @Test
    void reportingExistsAtOnceIsCaught() throws Exception {
        assertEquals("stat NOT_FOUND, NOT_LINEARIZABLE", run(ReportsExistsAtOnce::new, "fs-exists-at-once"));
    }
}
