package dev.innet.tracecheck;

import dev.innet.sim.simulated.Simulation;
import java.util.List;

/**
 * What one protocol plugs into trace validation (docs/conformance.md, "Trace validation"): where its spec
 * and trace spec live, and how one run's NDJSON events become the TLA+ model TLC checks. Implementations
 * are registered in {@code META-INF/services/dev.innet.tracecheck.TraceConversion} and found through
 * {@link TraceConversions}; {@link TraceValidator} runs any of them the same way.
 */
public interface TraceConversion {
    /** The protocol's registry name ({@code farreach}, {@code netcache}). */
    String protocol();

    /** The directory holding the spec and its trace spec, relative to the repository root. */
    String specDirectory();

    /** The files of {@link #specDirectory()} TLC needs (the spec, the trace spec): copied next to the model. */
    List<String> specFiles();

    /**
     * Converts one run. A run the trace spec does not cover, or malformed events, are refused with a
     * {@link TraceFormatException} naming the line (the verdict is then "unknown", never "accepted").
     */
    ConvertedTrace convert(List<TraceLine> lines, TraceSettings settings);

    /**
     * Whether {@link #convert} reads the events the simulator records itself (host 0,
     * {@code Simulation.ENVIRONMENT_HOST}: a switch crash). A conversion that does not (the default) never
     * sees them; {@link TraceValidator} leaves them out.
     */
    default boolean readsEnvironmentEvents() {
        return false;
    }

    /**
     * A live rack whose servers run an existing program that records no trace events (Protocol.externalServer: LaKe's
     * memcached): the merged run (NDJSON lines) with those servers' steps added where the rest of the run shows them,
     * or a refusal saying why they cannot be. By default they cannot: the converter needs the servers' own events.
     *
     * @throws TraceFormatException the servers' steps cannot be inferred (the verdict is then "unknown")
     */
    default List<String> withServerStepsInferred(List<String> run, java.util.Set<Integer> servers,
            java.util.Set<Integer> clients) {
        throw new TraceFormatException(protocol() + "'s converter needs its servers' own trace events, and the rack's "
                + "servers run a program that records none");
    }

    /** {@code lines} without the simulator's own events unless this conversion reads them. */
    default List<TraceLine> ownEvents(List<TraceLine> lines) {
        return readsEnvironmentEvents() ? lines : lines.stream().filter(l -> l.host() != Simulation.ENVIRONMENT_HOST).toList();
    }
}
