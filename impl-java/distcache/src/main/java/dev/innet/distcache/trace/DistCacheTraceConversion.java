package dev.innet.distcache.trace;

import dev.innet.tracecheck.ConvertedTrace;
import dev.innet.tracecheck.TraceConversion;
import dev.innet.tracecheck.TraceLine;
import dev.innet.tracecheck.TraceModel;
import dev.innet.tracecheck.TraceSettings;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * DistCache's plug-in: {@link DistCacheTraceConverter} against specs/distcache/DistCacheTrace.tla. The model:
 * DistCacheTraceData (the trace), a module that EXTENDS DistCacheTrace and defines the run's clients, keys,
 * cache nodes and placement, and its .cfg (bounds from the run, every bug flag FALSE, CursorReport as the
 * constraint whose printed cursor past the last event means "accepted").
 */
public final class DistCacheTraceConversion implements TraceConversion {
    /** Bug flags of DistCache.tla: all FALSE, the protocol as specified. */
    static final List<String> BUG_FLAGS = List.of("BugSinglePhase", "BugUpdateOnFirstAck", "BugRevalidateEarly",
            "BugNoVersionGuard", "BugFetchDuringWrite", "BugNoFillToken");

    @Override
    public String protocol() {
        return "distcache";
    }

    @Override
    public String specDirectory() {
        return "specs/distcache";
    }

    @Override
    public List<String> specFiles() {
        return List.of("DistCache.tla", "DistCacheTrace.tla");
    }

    /** The switches' frames and crashes are the simulator's events (host 0). */
    @Override
    public boolean readsEnvironmentEvents() {
        return true;
    }

    @Override
    public ConvertedTrace convert(List<TraceLine> lines, TraceSettings settings) {
        DistCacheTraceConverter.Converted run = new DistCacheTraceConverter().convert(lines);
        return ConvertedTrace.of(run.steps(), modelName -> Map.of(modelName + ".tla", module(modelName, run),
                "DistCacheTraceData.tla", traceData(run), modelName + ".cfg", config(run)));
    }

    static String module(String name, DistCacheTraceConverter.Converted run) {
        StringBuilder b = TraceModel.modelHead(name, "impl-java/distcache", "specs/distcache", "DistCacheTrace");
        b.append("TraceClients == ").append(set(run.clients())).append('\n');
        b.append("TraceKeys == ").append(set(run.spinePlace().keySet())).append('\n');
        b.append("TraceNodes == ").append(set(run.nodes())).append('\n');
        b.append("\\* each key's home cache node per layer (the controller's partitions)\n");
        b.append("TraceSpinePlace == ").append(function(run.spinePlace())).append('\n');
        b.append("TraceLeafPlace == ").append(function(run.leafPlace())).append('\n');
        b.append("TracePlace == [ly \\in Layer |-> IF ly = \"spine\" THEN TraceSpinePlace ELSE TraceLeafPlace]\n");
        b.append("\\* the agent re-fills copies that stay invalid (CacheRefetch)\n");
        b.append("TraceRefetch == TRUE\n");
        b.append("====\n");
        return b.toString();
    }

    private static String set(java.util.Collection<String> items) {
        return items.stream().sorted().map(TraceModel::str).collect(Collectors.joining(", ", "{", "}"));
    }

    private static String function(Map<String, String> f) {
        if (f.isEmpty()) {
            return "[k \\in {} |-> \"none\"]";
        }
        return f.entrySet().stream().map(e -> TraceModel.str(e.getKey()) + " :> " + TraceModel.str(e.getValue()))
                .collect(Collectors.joining(" @@ ", "(", ")"));
    }

    static String traceData(DistCacheTraceConverter.Converted run) {
        return TraceModel.traceDataHead("DistCacheTraceData", "impl-java/distcache", run.steps()).append("====\n").toString();
    }

    static String config(DistCacheTraceConverter.Converted run) {
        StringBuilder b = new StringBuilder();
        b.append("CONSTANTS\n");
        b.append("  Client <- TraceClients\n  Key <- TraceKeys\n  Node <- TraceNodes\n  Place <- TracePlace\n");
        b.append("  RefetchInvalid <- TraceRefetch\n");
        b.append("  MaxWrites = ").append(run.writes()).append('\n');
        b.append("  MaxReads = ").append(run.reads()).append('\n');
        b.append("  MaxLoss = 0\n");
        b.append("  MaxDup = ").append(run.dups()).append('\n');
        b.append("  MaxInsert = ").append(run.inserts()).append('\n');
        b.append("  MaxEvict = ").append(run.evictions()).append('\n');
        b.append("  MaxCrash = ").append(run.crashes()).append('\n');
        TraceModel.bugFlagsOff(b, BUG_FLAGS);
        b.append("INIT TraceInit\nNEXT TraceNext\nVIEW TraceView\nCONSTRAINT CursorReport\n");
        return b.toString();
    }
}
