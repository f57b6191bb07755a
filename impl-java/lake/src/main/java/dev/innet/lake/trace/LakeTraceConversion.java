package dev.innet.lake.trace;

import dev.innet.tracecheck.ConvertedTrace;
import dev.innet.tracecheck.TraceConversion;
import dev.innet.tracecheck.TraceFormatException;
import dev.innet.tracecheck.TraceLine;
import dev.innet.tracecheck.TraceModel;
import dev.innet.tracecheck.TraceSettings;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * LaKe's plug-in: {@link LakeTraceConverter} against specs/lake/LakeTrace.tla. The model: LakeTraceData
 * (the trace), a module that EXTENDS LakeTrace and defines the clients, keys and slot maps of the run, and
 * its .cfg (bounds from the run, every bug flag FALSE, CursorReport as the constraint whose printed cursor
 * past the last event means "accepted").
 */
public final class LakeTraceConversion implements TraceConversion {
    /** Bug flags of Lake.tla: all FALSE, the protocol as specified. */
    static final List<String> BUG_FLAGS = List.of("BugFillUnguarded", "BugWriteBack", "BugPaperWriteThrough",
            "BugAcceptUnknownTags", "BugKeepOnReject", "BugL2AtL1Index", "BugNoForget", "BugForgetKeepTags",
            "BugForgetMissL2");

    @Override
    public String protocol() {
        return "lake";
    }

    @Override
    public String specDirectory() {
        return "specs/lake";
    }

    @Override
    public List<String> specFiles() {
        return List.of("Lake.tla", "LakeTrace.tla");
    }

    /** The switch's frames and its crashes are the simulator's events (host 0). */
    @Override
    public boolean readsEnvironmentEvents() {
        return true;
    }

    /** The real memcached's steps, read off the switch's record of its answers ({@link MemcachedStepsFromSwitch}). */
    @Override
    public List<String> withServerStepsInferred(List<String> run, java.util.Set<Integer> servers,
            java.util.Set<Integer> clients) {
        return MemcachedStepsFromSwitch.infer(run, servers, clients);
    }

    @Override
    public ConvertedTrace convert(List<TraceLine> lines, TraceSettings settings) {
        LakeTraceConverter.Converted run = new LakeTraceConverter().convert(lines);
        return ConvertedTrace.of(run.steps(), modelName -> Map.of(modelName + ".tla", module(modelName, run),
                "LakeTraceData.tla", traceData(run), modelName + ".cfg", config(run)));
    }

    static String module(String name, LakeTraceConverter.Converted run) {
        StringBuilder b = TraceModel.modelHead(name, "impl-java/tracecheck", "specs/lake", "LakeTrace");
        b.append("TraceClients == ").append(run.clients().stream().sorted().map(TraceModel::str)
                .collect(Collectors.joining(", ", "{", "}"))).append('\n');
        b.append("TraceKeys == ").append(run.h1().keySet().stream().map(TraceModel::str)
                .collect(Collectors.joining(", ", "{", "}"))).append('\n');
        b.append("\\* lake.p4's CRC-32 slots, renumbered over the slots the run's keys use\n");
        b.append("TraceH1 == ").append(function(run.h1())).append('\n');
        b.append("TraceH2 == ").append(function(run.h2())).append('\n');
        b.append("\\* one memcached host for every key: runs have no memcached restart (MaxRestart = 0)\n");
        b.append("TraceOwner == [k \\in TraceKeys |-> 1]\n");
        b.append("====\n");
        return b.toString();
    }

    private static String function(Map<String, Integer> slots) {
        if (slots.isEmpty()) {
            return "[k \\in {} |-> 0]";
        }
        return slots.entrySet().stream().map(e -> TraceModel.str(e.getKey()) + " :> " + e.getValue())
                .collect(Collectors.joining(" @@ ", "(", ")"));
    }

    static String traceData(LakeTraceConverter.Converted run) {
        return TraceModel.traceDataHead("LakeTraceData", "impl-java/tracecheck", run.steps()).append("====\n").toString();
    }

    static String config(LakeTraceConverter.Converted run) {
        StringBuilder b = new StringBuilder();
        b.append("CONSTANTS\n");
        b.append("  Client <- TraceClients\n  Key <- TraceKeys\n  H1 <- TraceH1\n  H2 <- TraceH2\n");
        b.append("  L1Size = ").append(run.l1Size()).append('\n');
        b.append("  L2Size = ").append(run.l2Size()).append('\n');
        b.append("  MaxWrites = ").append(run.writes()).append('\n');
        b.append("  MaxReads = ").append(run.reads()).append('\n');
        b.append("  MaxLoss = ").append(run.droppedReplies()).append('\n');
        b.append("  MaxEvict = 0\n");
        b.append("  MaxReset = ").append(run.resets()).append('\n');
        b.append("  Host = {1}\n  Owner <- TraceOwner\n  MaxRestart = 0\n");
        TraceModel.bugFlagsOff(b, BUG_FLAGS);
        b.append("INIT TraceInit\nNEXT TraceNext\nVIEW TraceView\nCONSTRAINT CursorReport\n");
        return b.toString();
    }
}
