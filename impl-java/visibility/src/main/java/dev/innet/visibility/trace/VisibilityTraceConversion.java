package dev.innet.visibility.trace;

import dev.innet.tracecheck.ConvertedTrace;
import dev.innet.tracecheck.TraceConversion;
import dev.innet.tracecheck.TraceLine;
import dev.innet.tracecheck.TraceModel;
import dev.innet.tracecheck.TraceSettings;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The visibility layer's plug-in: {@link VisibilityTraceConverter} against specs/visibility/VisibilityTrace.tla.
 * The model: VisibilityTraceData (the trace), a module that EXTENDS VisibilityTrace and defines the keys, slots
 * and fingerprints of the run, and its .cfg (bounds from the run, every bug flag FALSE, CursorReport as the
 * constraint whose printed cursor past the last event means "accepted").
 */
public final class VisibilityTraceConversion implements TraceConversion {
    /** Bug flags of Visibility.tla: all FALSE, the protocol as specified. */
    static final List<String> BUG_FLAGS = List.of("BugOverwrite", "BugClearAny", "BugNoValidate", "BugNoBlock",
            "BugMaxTsInstallOnly", "BugResyncNoMaxTs", "BugRestamp");

    @Override
    public String protocol() {
        return "visibility";
    }

    @Override
    public String specDirectory() {
        return "specs/visibility";
    }

    @Override
    public List<String> specFiles() {
        return List.of("Visibility.tla", "VisibilityTrace.tla");
    }

    /** The switch's frames and its crashes are the simulator's events (host 0). */
    @Override
    public boolean readsEnvironmentEvents() {
        return true;
    }

    @Override
    public ConvertedTrace convert(List<TraceLine> lines, TraceSettings settings) {
        VisibilityTraceConverter.Converted run = new VisibilityTraceConverter().convert(lines);
        return ConvertedTrace.of(run.steps(), modelName -> Map.of(modelName + ".tla", module(modelName, run),
                "VisibilityTraceData.tla", traceData(run), modelName + ".cfg", config(run)));
    }

    static String module(String name, VisibilityTraceConverter.Converted run) {
        StringBuilder b = TraceModel.modelHead(name, "impl-java/visibility", "specs/visibility", "VisibilityTrace");
        b.append("TraceKeys == ").append(VisibilityTraceConverter.keys(run).stream().map(TraceModel::str)
                .collect(Collectors.joining(", ", "{", "}"))).append('\n');
        b.append("TraceWrites == 1..").append(run.writes()).append('\n');
        b.append("TraceReads == ").append(run.writes() + 1).append("..").append(run.writes() + run.reads()).append('\n');
        b.append("TraceSlots == 0..").append(run.slots() - 1).append('\n');
        b.append("\\* p4/visibility.p4's hash indices, renumbered over the indices the run's keys use\n");
        b.append("TraceSlotOf == ").append(function(run.slotOf())).append('\n');
        b.append("TraceFpOf == ").append(function(run.fpOf())).append('\n');
        b.append("====\n");
        return b.toString();
    }

    private static String function(Map<String, ? extends Number> f) {
        if (f.isEmpty()) {
            return "[k \\in {} |-> 0]";
        }
        return new java.util.TreeMap<>(f).entrySet().stream().map(e -> TraceModel.str(e.getKey()) + " :> " + e.getValue())
                .collect(Collectors.joining(" @@ ", "(", ")"));
    }

    static String traceData(VisibilityTraceConverter.Converted run) {
        return TraceModel.traceDataHead("VisibilityTraceData", "impl-java/visibility", run.steps()).append("====\n")
                .toString();
    }

    static String config(VisibilityTraceConverter.Converted run) {
        StringBuilder b = new StringBuilder();
        b.append("CONSTANTS\n");
        b.append("  Keys <- TraceKeys\n  Writes <- TraceWrites\n  Reads <- TraceReads\n  Slots <- TraceSlots\n");
        b.append("  SlotOf <- TraceSlotOf\n  FpOf <- TraceFpOf\n  NoKey = NoKey\n  NoW = NoW\n");
        b.append("  MaxLoss = 0\n");
        b.append("  MaxDup = ").append(run.dups()).append('\n');
        b.append("  MaxTimeouts = ").append(run.timeouts()).append('\n');
        b.append("  SpuriousTimeouts = TRUE\n");
        b.append("  TimeoutKinds = {\"client\", \"clear\", \"stale\"}\n");
        b.append("  MaxMdnCrash = ").append(run.metadataNodeRestarts()).append('\n');
        b.append("  MaxSwCrash = ").append(run.crashes()).append('\n');
        TraceModel.bugFlagsOff(b, BUG_FLAGS);
        b.append("INIT TraceInit\nNEXT TraceNext\nVIEW TraceView\nCONSTRAINT CursorReport\n");
        return b.toString();
    }
}
