package dev.innet.tracecheck;

import dev.innet.cli.Cli;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * Validates one rack run's trace events against its protocol's trace spec (specs/farreach/FarReachTrace.tla,
 * specs/netcache/NetCacheTrace.tla, ...: every registered {@link TraceConversion}) with TLC and prints the
 * verdict. Exit codes: 0 accepted, 1 rejected, 3 unknown (conversion failed, TLC error or
 * timeout: never reported as accepted), 2 bad arguments.
 */
@Command(name = "innet-tracecheck", mixinStandardHelpOptions = true,
        description = "Trace validation: does the protocol's spec admit this run? (docs/conformance.md)")
public final class ValidateMain implements Callable<Integer> {
    public static final int EXIT_ACCEPTED = 0;
    public static final int EXIT_REJECTED = 1;
    public static final int EXIT_UNKNOWN = 3;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Parameters(index = "0", paramLabel = "NDJSON", description = "the run's trace events (Simulation.writeTraceEvents)")
    Path ndjson;

    @Option(names = "--protocol", paramLabel = "P", description = "the protocol that produced the run: one with trace "
            + "validation (default: ${DEFAULT-VALUE})")
    String protocol = "farreach";

    @Option(names = "--specs", paramLabel = "DIR", description = "directory with the protocol's spec and trace spec "
            + "(default: the protocol's, e.g. specs/farreach)")
    Path specs;

    @Option(names = "--work", paramLabel = "DIR", description = "where the model and TLC's log go (default: next to "
            + "the NDJSON, NDJSON.tlc)")
    Path work;

    @Option(names = "--cache-size", paramLabel = "N", description = "the rack's cache capacity (default: the number "
            + "of keys, which never limits admissions)")
    Integer cacheSize;

    @Option(names = "--client-link-nanos", paramLabel = "NS", description = "delay of the clients' links to the "
            + "switch (default: ${DEFAULT-VALUE}, the rack's clean links)")
    long clientLinkNanos = TraceSettings.DEFAULT_CLIENT_LINK_NANOS;

    @Option(names = "--timeout", paramLabel = "SECONDS", description = "TLC time limit (default: ${DEFAULT-VALUE})")
    long timeoutSeconds = 300;

    public static void main(String[] args) {
        Cli.main("innet-tracecheck", new ValidateMain(), args);
    }

    @Override
    public Integer call() throws Exception {
        if (!Files.isRegularFile(ndjson)) {
            throw Cli.usageError(spec, "no such file: " + ndjson);
        }
        TraceConversion conversion;
        try {
            conversion = TraceConversions.of(protocol);
        } catch (IllegalArgumentException e) {
            throw Cli.usageError(spec, "--protocol: " + e.getMessage());
        }
        Path specDir = specs != null ? specs : Path.of(conversion.specDirectory());
        for (String file : conversion.specFiles()) {
            if (!Files.isRegularFile(specDir.resolve(file))) {
                throw Cli.usageError(spec, "--specs " + specDir + " holds no " + String.join(" and ", conversion.specFiles()));
            }
        }
        if (cacheSize != null && cacheSize < 1) {
            throw Cli.usageError(spec, "--cache-size must be >= 1: " + cacheSize);
        }
        if (clientLinkNanos < 0 || timeoutSeconds < 1) {
            throw Cli.usageError(spec, "--client-link-nanos must be >= 0 and --timeout >= 1");
        }
        Path workDir = work != null ? work : ndjson.resolveSibling(ndjson.getFileName() + ".tlc");
        TraceValidator.Result r = new TraceValidator(conversion, specDir, workDir, Duration.ofSeconds(timeoutSeconds),
                new TraceSettings(clientLinkNanos, cacheSize)).validate(ndjson);
        spec.commandLine().getOut().println(ndjson + ": " + r.summary());
        return switch (r.verdict()) {
            case ACCEPTED -> EXIT_ACCEPTED;
            case REJECTED -> EXIT_REJECTED;
            case UNKNOWN -> EXIT_UNKNOWN;
        };
    }
}
