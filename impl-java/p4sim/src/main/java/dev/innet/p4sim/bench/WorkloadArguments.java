package dev.innet.p4sim.bench;

import dev.innet.cli.Cli;
import dev.innet.cli.ExistingFile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;

/**
 * The arguments of the single-workload benchmarks ({@link InProcessBench}, {@link VethBench}):
 * {@code PROGRAM.p4 SCENARIO.stf PACKET_INDEX [SECONDS]}, a picocli mixin.
 */
final class WorkloadArguments {
    @Parameters(index = "0", paramLabel = "PROGRAM.p4", converter = ExistingFile.class, description = "the P4 program")
    Path program;

    @Parameters(index = "1", paramLabel = "SCENARIO.stf", converter = ExistingFile.class,
            description = "its STF scenario: every command and the packets before PACKET_INDEX prepare the switch")
    Path scenario;

    @Parameters(index = "2", paramLabel = "PACKET_INDEX", description = "the scenario's packet (from 1) that is sent repeatedly")
    int packetIndex;

    @Parameters(index = "3", arity = "0..1", paramLabel = "SECONDS", description = "timed seconds (default: ${DEFAULT-VALUE})")
    double seconds = 5;

    /** What the converters cannot see; call first thing in {@code call()}. */
    void check(CommandSpec spec) {
        if (!(seconds > 0) || Double.isInfinite(seconds)) {
            throw Cli.usageError(spec, "SECONDS must be a positive number, got " + seconds);
        }
        long packets;
        try (var lines = Files.lines(scenario)) {
            packets = lines.filter(l -> l.startsWith("packet ")).count();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (packetIndex < 1 || packetIndex > packets) {
            throw Cli.usageError(spec, "PACKET_INDEX " + packetIndex + " is not a packet of " + scenario + " (1.." + packets + ")");
        }
    }
}
