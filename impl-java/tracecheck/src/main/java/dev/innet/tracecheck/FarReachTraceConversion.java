package dev.innet.tracecheck;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** FarReach's plug-in: {@link FarReachTraceConverter} and {@link TraceModel} against specs/farreach/FarReachTrace.tla. */
public final class FarReachTraceConversion implements TraceConversion {
    @Override
    public String protocol() {
        return "farreach";
    }

    @Override
    public String specDirectory() {
        return "specs/farreach";
    }

    @Override
    public List<String> specFiles() {
        return List.of("FarReach.tla", "FarReachTrace.tla");
    }

    /** The simulator's switch crash is FarReach.tla's SwitchCrash. */
    @Override
    public boolean readsEnvironmentEvents() {
        return true;
    }

    @Override
    public ConvertedTrace convert(List<TraceLine> lines, TraceSettings settings) {
        FarReachTraceConverter.Converted run = new FarReachTraceConverter(settings.clientLinkNanos(), settings.cacheSize())
                .convert(lines);
        return ConvertedTrace.of(run.steps(), modelName -> {
            Map<String, String> files = new LinkedHashMap<>();
            files.put(modelName + ".tla", TraceModel.module(modelName, run));
            files.put("FarReachTraceData.tla", TraceModel.traceData(run));
            files.put(modelName + ".cfg", TraceModel.config(run));
            return files;
        });
    }
}
