package dev.innet.p4sim.bench;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/** The bmv2 line of {@code innet bench p4sim}. */
final class Bmv2Bench {
    private Bmv2Bench() { }

    /** The first executable called {@code name} on PATH. */
    static Optional<Path> onPath(String name) {
        String path = System.getenv("PATH");
        if (path == null) {
            return Optional.empty();
        }
        for (String dir : path.split(File.pathSeparator)) {
            Path p = Path.of(dir.isEmpty() ? "." : dir, name);
            if (Files.isRegularFile(p) && Files.isExecutable(p)) {
                return Optional.of(p);
            }
        }
        return Optional.empty();
    }

    /**
     * What the benchmark says about bmv2: not installed, or installed but not driven (that needs p4c and a
     * translation of the STF preparation into runtime-CLI commands; docs/p4sim.md, Benchmark).
     */
    static String line() {
        Optional<Path> bmv2 = onPath("simple_switch");
        if (bmv2.isEmpty()) {
            return "bmv2: not installed (no simple_switch on PATH), so no bmv2 figures or ratio";
        }
        return "bmv2: " + bmv2.get() + " is installed, but this benchmark does not drive it yet (docs/p4sim.md, Benchmark)";
    }
}
