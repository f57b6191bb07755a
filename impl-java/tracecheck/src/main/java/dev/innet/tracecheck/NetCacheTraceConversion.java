package dev.innet.tracecheck;

import java.util.List;
import java.util.Map;

/** NetCache's plug-in: {@link NetCacheTraceConverter} and {@link NetCacheTraceModel} against specs/netcache/NetCacheTrace.tla. */
public final class NetCacheTraceConversion implements TraceConversion {
    @Override
    public String protocol() {
        return "netcache";
    }

    @Override
    public String specDirectory() {
        return "specs/netcache";
    }

    @Override
    public List<String> specFiles() {
        return List.of("NetCache.tla", "NetCacheTrace.tla");
    }

    /** The switch's switchIn/switchOut events place the clients' steps (NetCacheTraceConverter, "Order"). */
    @Override
    public boolean readsEnvironmentEvents() {
        return true;
    }

    @Override
    public ConvertedTrace convert(List<TraceLine> lines, TraceSettings settings) {
        NetCacheTraceConverter.Converted run = new NetCacheTraceConverter(settings).convert(lines);
        return ConvertedTrace.of(run.steps(), modelName -> NetCacheTraceModel.files(modelName, run));
    }
}
