package dev.innet.visibility;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.innet.rack.Rack;
import dev.innet.rack.RackRuns;
import dev.innet.rack.check.RunVerdict;
import dev.innet.sim.NodeContext;
import dev.innet.switchapi.SwitchControl;
import dev.innet.visibility.controller.Resync;
import dev.innet.visibility.datanode.DataNode;
import dev.innet.visibility.datanode.LogEntry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.LongFunction;

/**
 * The buggy variants of specs/visibility (MANIFEST "violates" lines) as implementation bugs, in test
 * code only: switch-side ones as variants of p4/visibility.p4 written under target/, host-side ones as
 * subclasses of the real nodes.
 */
final class SeededBugs {
    private SeededBugs() {}

    /** p4/visibility.p4 with {@code from} replaced by {@code to} (which must occur exactly once), under target/. */
    static Path p4Variant(String name, String from, String to) throws IOException {
        String source = Files.readString(RackRuns.root().resolve("p4/visibility.p4"));
        int at = source.indexOf(from);
        assertTrue(at >= 0 && source.indexOf(from, at + 1) < 0, name + ": the line to change is not unique in p4/visibility.p4");
        Path out = Path.of("target", "seeded", name + ".p4").toAbsolutePath();
        Files.createDirectories(out.getParent());
        Files.writeString(out, source.replace(from, to));
        return out;
    }

    /** BugOverwrite: install over a non-clear entry. */
    static Path overwrite() throws IOException {
        return p4Variant("overwrite", "if (valid == 0 && ts > max_ts && meta.meta_parsed)",
                "if (ts > max_ts && meta.meta_parsed)");
    }

    /** BugClearAny: a second-phase reply and a CLEAR clear whatever the timestamp. */
    static Path clearAny() throws IOException {
        Path p = p4Variant("clear-any-m", "if (valid == 1 && ts == cur_ts) {\n                        vis_valid.write(i, 0);                                 /* M1 */",
                "if (valid == 1) {\n                        vis_valid.write(i, 0);                                 /* M1 */");
        String s = Files.readString(p);
        String c1 = "if (valid == 1 && ts == cur_ts) {\n                        vis_valid.write(i, 0);                                 /* C1 */";
        assertTrue(s.contains(c1), "C1 not found");
        Path out = p.resolveSibling("clear-any.p4");
        Files.writeString(out, s.replace(c1, "if (valid == 1) {\n                        vis_valid.write(i, 0);                                 /* C1 */"));
        return out;
    }

    /** BugNoBlock: a second-phase reply newer than the busy entry passes to the client. */
    static Path noBlock() throws IOException {
        return p4Variant("no-block", "} else if (valid == 1 && ts > cur_ts) {", "} else if (false) {");
    }

    /** BugMaxTsInstallOnly: only installs raise MaxTs. */
    static Path maxTsInstallOnly() throws IOException {
        Path p = p4Variant("maxts-install-only", "vis_max_ts.write(i, ts > max_ts ? ts : max_ts);           /* W1 */", "");
        String s = Files.readString(p);
        String install = "vis_valid.write(i, 1);\n";
        assertTrue(s.contains(install));
        Files.writeString(p, s.replace(install, install + "                        vis_max_ts.write(i, ts);\n"));
        return p;
    }

    /** BugNoValidate: the data node answers a read without checking the stored key. */
    static final class NoValidateDataNode extends DataNode {
        NoValidateDataNode(RackRoles roles) {
            super(roles);
        }

        @Override
        protected boolean validates(LogEntry entry, byte[] queriedKey) {
            return true;
        }
    }

    /** BugRestamp: a retried or duplicated write request is appended again with a new timestamp. */
    static final class RestampDataNode extends DataNode {
        RestampDataNode(RackRoles roles) {
            super(roles);
        }

        @Override
        protected long earlierWriteOf(int clientIp, long reqId) {
            return -1;
        }
    }

    /**
     * A data node whose table of written requests lives in memory only: after a restart it no longer recognises a
     * request it wrote before the crash, so a retry of one is appended again under a new timestamp (the restart-only
     * form of BugRestamp; the real DataLog rebuilds the table from the log).
     */
    static final class ForgetsRequestsOnRestartDataNode extends DataNode {
        private long firstPositionOfThisIncarnation;

        ForgetsRequestsOnRestartDataNode(RackRoles roles) {
            super(roles);
        }

        @Override
        public void onStart(NodeContext context) {
            super.onStart(context);
            firstPositionOfThisIncarnation = logEntries().size();
        }

        @Override
        protected long earlierWriteOf(int clientIp, long reqId) {
            long position = super.earlierWriteOf(clientIp, reqId);
            return position < firstPositionOfThisIncarnation ? -1 : position;
        }
    }

    /** BugResyncNoMaxTs: the switch comes back with MaxTs = 0. */
    static final class ResyncWithoutMaxTs extends Resync {
        ResyncWithoutMaxTs(NodeContext ctx, dev.innet.visibility.TimerActions timers, RackRoles roles, SwitchControl control,
                long round, Runnable onDone) {
            super(ctx, timers, roles, control, round, onDone);
        }

        @Override
        protected boolean reloadsMaxTs() {
            return false;
        }
    }

    /** Runs the rack of each seed until one run is found violated; fails if none is. */
    static void caughtInSomeSeed(String bug, int seeds, LongFunction<Rack> rackOfSeed) throws Exception {
        StringBuilder tried = new StringBuilder();
        for (long seed = 1; seed <= seeds; seed++) {
            Rack rack = rackOfSeed.apply(seed);
            rack.run();
            RunVerdict v = RackRuns.verdict(rack, "seeded-" + bug + "-" + seed);
            if (v.violated()) {
                System.out.println("seeded bug " + bug + " caught with seed " + seed + ": " + v.describe());
                return;
            }
            tried.append(seed).append(": ").append(v.describe()).append('\n');
        }
        throw new AssertionError("seeded bug " + bug + " not caught in " + seeds + " seeds:\n" + tried);
    }
}
