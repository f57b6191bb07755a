package dev.innet.conformance;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Seeded P4 bugs for conformance tests: a copy of the repository's p4/ tree (includes and all) with
 * exact text replacements in one program, so that a replay can run the mutant on p4sim.
 */
public final class P4Mutants {
    private P4Mutants() {}

    /**
     * Copies {@code repositoryRoot}/p4 to {@code dir}/p4 and applies {@code replacements} (exact text ->
     * new text, in order) to {@code program} (a path inside p4/, e.g. {@code visibility.p4}); returns the
     * mutated program. Each text must occur exactly once, so that a test notices when the code it
     * mutates moves.
     */
    public static Path copyWithChanges(Path repositoryRoot, Path dir, String program, Map<String, String> replacements)
            throws IOException {
        Path from = repositoryRoot.resolve("p4");
        Path p4 = dir.resolve("p4");
        try (var files = Files.walk(from)) {
            for (Path f : files.toList()) {
                Path to = p4.resolve(from.relativize(f).toString());
                if (Files.isDirectory(f)) {
                    Files.createDirectories(to);
                } else {
                    Files.copy(f, to);
                }
            }
        }
        Path mutated = p4.resolve(program);
        String source = Files.readString(mutated);
        for (var e : replacements.entrySet()) {
            int occurrences = source.split(Pattern.quote(e.getKey()), -1).length - 1;
            if (occurrences != 1) {
                throw new IllegalStateException(program + " holds '" + e.getKey() + "' " + occurrences
                        + " times, not once: the mutated code moved");
            }
            source = source.replace(e.getKey(), e.getValue());
        }
        Files.writeString(mutated, source);
        return mutated;
    }
}
