package dev.innet.pegasus.trace;

import dev.innet.tracecheck.ConvertedTrace;
import dev.innet.tracecheck.TraceConversion;
import dev.innet.tracecheck.TraceLine;
import dev.innet.tracecheck.TraceModel;
import dev.innet.tracecheck.TraceSettings;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Pegasus's plug-in (one rack, not the chain): {@link PegasusTraceConverter} against
 * specs/pegasus/PegasusTrace.tla. The model: PegasusTraceData (the trace and each write's detector), a module
 * that EXTENDS PegasusTrace and defines the keys and their homes, and its .cfg (bounds from the run,
 * at-most-once on, every bug flag FALSE, Detector replaced by the trace's, CursorReport as the constraint whose
 * printed cursor past the last event means "accepted").
 */
public final class PegasusTraceConversion implements TraceConversion {
    /** Bug flags of Pegasus.tla: all FALSE, the protocol as specified. */
    static final List<String> BUG_FLAGS = List.of("BugAcceptLower", "BugAddOnLower", "BugNoReset", "BugEarlyRemove",
            "BugVWNoDrain", "BugNoTableCopy", "BugBlindDupReply", "BugForwardUnvouched", "BugRewriteUncond",
            "BugRewriteNoDrain", "BugRewriteHomeCopy");

    @Override
    public String protocol() {
        return "pegasus";
    }

    @Override
    public String specDirectory() {
        return "specs/pegasus";
    }

    @Override
    public List<String> specFiles() {
        return List.of("Pegasus.tla", "PegasusTrace.tla");
    }

    /** A switch crash (the simulator's event, host 0) must be seen to be refused. */
    @Override
    public boolean readsEnvironmentEvents() {
        return true;
    }

    @Override
    public ConvertedTrace convert(List<TraceLine> lines, TraceSettings settings) {
        PegasusTraceConverter.Converted run = new PegasusTraceConverter().convert(lines);
        return ConvertedTrace.of(run.steps(), modelName -> Map.of(modelName + ".tla", module(modelName, run),
                "PegasusTraceData.tla", traceData(run), modelName + ".cfg", config(run)));
    }

    static String module(String name, PegasusTraceConverter.Converted run) {
        StringBuilder b = TraceModel.modelHead(name, "impl-java/pegasus", "specs/pegasus", "PegasusTrace");
        b.append("TraceKeys == ").append(run.home().keySet().stream().sorted().map(TraceModel::str)
                .collect(Collectors.joining(", ", "{", "}"))).append('\n');
        b.append("\\* each key's home: the server (index + 1) its clients address\n");
        b.append("TraceHome == ").append(run.home().entrySet().stream().sorted(Map.Entry.comparingByKey())
                .map(e -> TraceModel.str(e.getKey()) + " :> " + e.getValue())
                .collect(Collectors.joining(" @@ ", "(", ")"))).append('\n');
        b.append("TraceInitRKeys == {}\n");
        b.append("====\n");
        return b.toString();
    }

    static String traceData(PegasusTraceConverter.Converted run) {
        StringBuilder b = TraceModel.traceDataHead("PegasusTraceData", "impl-java/pegasus", run.steps());
        b.append("\\* each write's detector (index + 1): p4/pegasus.p4's hash of its client and request id\n");
        b.append("TraceDet == ").append(run.detectors().stream().map(String::valueOf)
                .collect(Collectors.joining(", ", "<<", ">>"))).append('\n');
        return b.append("====\n").toString();
    }

    static String config(PegasusTraceConverter.Converted run) {
        StringBuilder b = new StringBuilder();
        b.append("CONSTANTS\n");
        b.append("  NServers = ").append(run.servers()).append('\n');
        b.append("  Keys <- TraceKeys\n  Home <- TraceHome\n  InitRKeys <- TraceInitRKeys\n");
        b.append("  NWrites = ").append(run.writes()).append('\n');
        b.append("  NReads = ").append(run.reads()).append('\n');
        b.append("  MaxDup = ").append(run.dups()).append('\n');
        b.append("  MaxLoss = ").append(run.losses()).append('\n');
        // one more than the retries: a reply the client does not hear (lost) needs a retry left (ClientLossChoices)
        b.append("  MaxRetry = ").append(run.retries() + 1).append('\n');
        b.append("  MaxAdd = ").append(run.adds()).append('\n');
        b.append("  MaxRemove = ").append(run.removes()).append('\n');
        b.append("  MaxVW = ").append(run.virtualWrites()).append('\n');
        // issue 16: one RemovalRewrite per attempt the switch stamped
        b.append("  MaxRewrite = ").append(run.rewrites()).append('\n');
        b.append("  EnableAtMostOnce = TRUE\n");
        TraceModel.bugFlagsOff(b, BUG_FLAGS);
        b.append("  Detector <- TraceDetectorOf\n");
        b.append("INIT TraceInit\nNEXT TraceNext\nVIEW TraceView\nCONSTRAINT CursorReport\n");
        return b.toString();
    }
}
