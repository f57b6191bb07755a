package dev.innet.conformance;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Pattern;

/**
 * A seeded data-plane bug for a replay test: a copy of the repository's {@code p4/} (so the program's
 * includes resolve) in which one program has exactly one passage replaced.
 */
public final class P4Mutant {
    private P4Mutant() {}

    /**
     * Copies {@code root/p4} to {@code dir/p4} and replaces {@code original} in {@code program} (a file
     * name under p4/) by {@code replacement}; returns the mutated program's path. Fails unless the
     * passage occurs exactly once, so a test notices when the rule it mutates has moved.
     */
    public static Path of(Path root, Path dir, String program, String original, String replacement) throws IOException {
        Path from = root.resolve("p4");
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
        int occurrences = source.split(Pattern.quote(original), -1).length - 1;
        if (occurrences != 1) {
            throw new IllegalArgumentException(program + ": the passage to mutate occurs " + occurrences
                    + " times, not once: " + original);
        }
        Files.writeString(mutated, source.replace(original, replacement));
        return mutated;
    }
}
