package dev.innet.tracecheck;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Writes a converted NetCache run as the TLA+ model TLC checks: NetCacheTraceData (the trace), a module
 * {@code name} that EXTENDS NetCacheTrace and defines the constant sets, and its .cfg (bounds from the run,
 * every bug flag FALSE, RestartSeqBase TRUE as the implementation does, CursorReport as the constraint
 * whose printed cursor past the last event means "accepted").
 */
public final class NetCacheTraceModel {
    /** Bug flags of NetCache.tla: all FALSE, the protocol as specified. */
    static final List<String> BUG_FLAGS = List.of("BugRefillUnguarded", "BugServerIgnoresSeq", "BugNoInvalidate",
            "BugCommitUnguarded", "BugAdmitKeepsSeq");

    private NetCacheTraceModel() {}

    public static Map<String, String> files(String name, NetCacheTraceConverter.Converted run) {
        return Map.of(name + ".tla", module(name, run), "NetCacheTraceData.tla", traceData(run), name + ".cfg",
                config(run));
    }

    static String module(String name, NetCacheTraceConverter.Converted run) {
        StringBuilder b = TraceModel.modelHead(name, "impl-java/tracecheck", "specs/netcache", "NetCacheTrace");
        b.append("TraceClients == ").append(set(run.clients())).append('\n');
        b.append("TraceServers == ").append(set(run.servers())).append('\n');
        b.append("TraceKeys == ").append(set(run.keys())).append('\n');
        b.append("TraceOwner == [k \\in TraceKeys |-> CASE ");
        b.append(run.owner().entrySet().stream()
                .map(e -> "k = " + TraceModel.str(e.getKey()) + " -> " + TraceModel.str(e.getValue()))
                .collect(Collectors.joining(" [] ")));
        b.append("]\n\n====\n");
        return b.toString();
    }

    /** The module NetCacheTrace.tla extends: the run's events as the definition Trace, and DeleteIds. */
    static String traceData(NetCacheTraceConverter.Converted run) {
        StringBuilder b = TraceModel.traceDataHead("NetCacheTraceData", "impl-java/tracecheck", run.steps());
        b.append("\\* the write ids that are deletes: staged nothing, and their records are NOT_FOUND\n");
        b.append("DeleteIds == ").append(run.deletes().stream().map(String::valueOf)
                .collect(Collectors.joining(", ", "{", "}"))).append('\n');
        b.append("====\n");
        return b.toString();
    }

    static String config(NetCacheTraceConverter.Converted run) {
        StringBuilder b = new StringBuilder();
        b.append("CONSTANTS\n");
        b.append("  Client <- TraceClients\n  Server <- TraceServers\n  Key <- TraceKeys\n  Owner <- TraceOwner\n");
        b.append("  CacheSize = ").append(run.cacheSize()).append('\n');
        b.append("  MaxWrites = ").append(run.writes()).append('\n');
        b.append("  MaxReads = ").append(run.reads()).append('\n');
        b.append("  MaxLoss = ").append(run.losses() * 2 + 1).append('\n');
        b.append("  MaxDup = ").append(run.duplicates()).append('\n');
        b.append("  MaxAdmit = ").append(run.admissions()).append('\n');
        b.append("  MaxEvict = ").append(run.evictions()).append('\n');
        b.append("  MaxSwitchCrash = ").append(run.restarts()).append('\n');
        b.append("  RestartSeqBase = TRUE\n");
        TraceModel.bugFlagsOff(b, BUG_FLAGS);
        // no INVARIANT TraceNotFinished: its violation would print every state of the run; CursorReport
        // stops TLC at the end instead (as FarReach's model)
        b.append("INIT TraceInit\nNEXT TraceNext\nVIEW TraceView\nCONSTRAINT CursorReport\n");
        return b.toString();
    }

    private static String set(Collection<String> items) {
        return items.stream().map(TraceModel::str).collect(Collectors.joining(", ", "{", "}"));
    }
}
