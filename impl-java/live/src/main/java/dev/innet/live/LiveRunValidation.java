package dev.innet.live;

import dev.innet.sim.simulated.Simulation;
import dev.innet.tracecheck.TraceConversion;
import dev.innet.tracecheck.TraceSettings;
import dev.innet.tracecheck.TraceValidator;
import dev.innet.verify.FileTrees;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * {@code rack validate}: trace validation of a live rack's run (implementation -> spec). The hosts' and the
 * switch's trace events (rack up --trace-events) are merged into one run in time order, written to
 * {@code validation/run.ndjson} under the rack's state directory (cut consistently if the rack is still running:
 * {@link TraceEventsMerge#mergeLive}), and checked by {@link TraceValidator}
 * with the protocol's converter and trace spec, with the settings the rack's processes ran with
 * ({@link HostMain#rackSpec}: the cache capacity). TLC's model and log go to {@code validation/tlc/}.
 */
final class LiveRunValidation {
    /**
     * @param result          TLC's verdict (UNKNOWN also for events that cannot be merged or converted)
     * @param files           the trace-event files merged (switch and hosts)
     * @param switchFrames    whether the switch's own events (p4sim --trace-frames) were among them
     * @param run             the merged run
     */
    record Outcome(TraceValidator.Result result, int files, boolean switchFrames, Path run) {
        /** The merged run's line {@code number} (1-based), or "" if there is none. */
        String line(long number) {
            try {
                List<String> lines = Files.readAllLines(run);
                return number >= 1 && number <= lines.size() ? lines.get((int) number - 1) : "";
            } catch (IOException e) {
                return "";
            }
        }
    }

    private LiveRunValidation() {
    }

    /** Where the merged run, the model and TLC's log of a rack's validation go. */
    static Path directoryOf(RackLayout layout) {
        return layout.stateDir().resolve("validation");
    }

    /**
     * Merges, converts and checks the rack's run.
     *
     * @param specs the protocol's spec directory ({@link TraceConversion#specDirectory} under the repository root)
     * @throws IllegalArgumentException a trace-event line that is not one, naming its file and line
     */
    static Outcome validate(RackLayout layout, TraceConversion conversion, Path specs, Duration limit)
            throws IOException, InterruptedException {
        return validate(layout, conversion, specs, limit, List.of());
    }

    /**
     * @param restartedServers server processes the plan records as started again (rack restart): a server program
     *                         that records no events lost its data then, which no event of the run shows
     */
    static Outcome validate(RackLayout layout, TraceConversion conversion, Path specs, Duration limit,
            List<String> restartedServers) throws IOException, InterruptedException {
        List<Path> files = TraceEventsMerge.filesOf(layout);
        boolean switchFrames = files.contains(layout.traceEventsOf(Simulation.ENVIRONMENT_HOST))
                || !TraceEventsMerge.switchFilesOf(layout).isEmpty();
        List<String> merged = TraceEventsMerge.mergeLive(files); // the rack may still be running
        Path dir = directoryOf(layout);
        FileTrees.delete(dir); // TLC's state directories of an earlier validation would only pile up
        Files.createDirectories(dir);
        Path run = dir.resolve("run.ndjson");
        dev.innet.protocol.Protocol protocol = dev.innet.protocol.ProtocolRegistry.byName(conversion.protocol());
        if (protocol.externalServer().isPresent()) {
            // the servers run a program that records nothing (LaKe: memcached): their steps come from the rest of the run
            Files.write(dir.resolve("merged.ndjson"), merged);
            if (!restartedServers.isEmpty()) {
                return new Outcome(TraceValidator.Result.unknown("server program restarted on " + restartedServers
                        + " (rack restart): it came back empty, which the spec's servers never do, and no event of the "
                        + "run says when"), files.size(), switchFrames, run);
            }
            try {
                merged = conversion.withServerStepsInferred(merged, java.util.Set.copyOf(layout.servers()),
                        java.util.Set.copyOf(layout.clients()));
            } catch (dev.innet.tracecheck.TraceFormatException e) {
                return new Outcome(TraceValidator.Result.unknown("cannot infer the servers' steps from "
                        + dir.resolve("merged.ndjson") + ": " + e.getMessage()), files.size(), switchFrames, run);
            }
        }
        Files.write(run, merged);
        TraceSettings settings = TraceSettings.rack(HostMain.rackSpec(layout, protocol).cacheCapacity());
        TraceValidator.Result r = new TraceValidator(conversion, specs, dir.resolve("tlc"), limit, settings).validate(run);
        return new Outcome(r, files.size(), switchFrames, run);
    }
}
