package dev.innet.app.bench.plot;

import dev.innet.cli.Cli;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code --plot [DIR]}, the same on every bench (a picocli mixin): also write the bench's figures to
 * {@code DIR/index.html}, by default under {@code results/bench/<bench>/}. The directory is made and
 * checked when the bench starts, so that a DIR that cannot be written is one line and exit code 2 before
 * minutes of measuring, not an exception after them.
 */
public final class PlotOption {
    @Spec(Spec.Target.MIXEE)
    CommandSpec mixee;

    /** Empty when {@code --plot} is given without DIR: the bench's default, which the mixin cannot name. */
    @Option(names = "--plot", arity = "0..1", fallbackValue = "", paramLabel = "DIR",
            description = "also write the figures as HTML to DIR/index.html (default DIR: results/bench/<bench>/)")
    Path requested;

    private Path directory;

    /** For a bench run from code (a test): plot into {@code dir}. */
    public static PlotOption into(Path dir) {
        PlotOption plot = new PlotOption();
        plot.directory = dir;
        return plot;
    }

    /**
     * Resolves and makes the directory, relative paths against {@code root}; call at the start of
     * {@code call()}. Without {@code --plot}, does nothing.
     *
     * @throws picocli.CommandLine.ParameterException if the directory cannot be made or written
     */
    public void prepare(Path root, String bench) {
        if (requested == null) {
            return;
        }
        Path dir = requested.toString().isEmpty() ? Path.of("results", "bench", bench) : requested;
        dir = (dir.isAbsolute() ? dir : root.resolve(dir)).normalize();
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw Cli.usageError(mixee, "--plot: cannot make the directory " + dir + " (" + reason(dir, e) + ")");
        }
        if (!Files.isWritable(dir)) {
            throw Cli.usageError(mixee, "--plot: the directory " + dir + " is not writable");
        }
        directory = dir;
    }

    /** With {@code --plot}, writes the page and prints where; otherwise does nothing. */
    public void write(PlotPage page, PrintStream out) throws IOException {
        if (directory == null) {
            return;
        }
        Path written = page.write(directory);
        out.println();
        out.println("figures: " + written);
    }

    /** Why {@code dir} could not be made, in the user's terms: what is in the way, or what was refused. */
    private static String reason(Path dir, IOException e) {
        Path existing = dir;
        while (existing != null && !Files.exists(existing)) {
            existing = existing.getParent();
        }
        if (existing != null && !Files.isDirectory(existing)) {
            return existing + " is not a directory";
        }
        if (e instanceof AccessDeniedException) {
            return "permission denied";
        }
        return e instanceof FileSystemException f && f.getReason() != null ? f.getReason()
                : e.getClass().getSimpleName() + ": " + e.getMessage();
    }
}
