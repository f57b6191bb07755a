package dev.innet.p4sim.stf;

import java.io.File;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * {@code ./innet stf --target bmv2}: the same test on bmv2's {@code simple_switch}. Neither bmv2 nor p4c
 * can be installed here (docs/p4sim.md, "STF tests"), so this only finds out what is missing and says
 * what would run; it never pretends to have run a test.
 */
final class Bmv2Target {
    private Bmv2Target() { }

    static int run(Path program, Path script, PrintStream err) {
        return run(program, script, err, System.getenv("PATH"));
    }

    /** {@code path}: the search path (the environment's PATH; tests pass their own). */
    static int run(Path program, Path script, PrintStream err, String path) {
        if (onPath("simple_switch", path) == null) {
            err.println("stf: simple_switch not found on PATH (bmv2 is not installed; --target p4sim runs the test on p4sim)");
            return StfMain.EXIT_BAD_INPUT;
        }
        if (onPath("p4c-bm2-ss", path) == null && onPath("p4c", path) == null) {
            err.println("stf: p4c not found on PATH: simple_switch needs the program compiled to bmv2 JSON "
                    + "(p4c --target bmv2 --arch v1model)");
            return StfMain.EXIT_BAD_INPUT;
        }
        err.println("stf: simple_switch and p4c are installed, but p4sim does not drive them: run p4c's own runner, "
                + "python3 backends/bmv2/run-bmv2-test.py . " + program + " (it compiles " + program
                + " with p4c-bm2-ss and runs " + script + " through bmv2stf.py on simple_switch)");
        return StfMain.EXIT_BAD_INPUT;
    }

    private static Path onPath(String exe, String path) {
        if (path == null) {
            return null;
        }
        for (String dir : path.split(File.pathSeparator)) {
            Path p = Path.of(dir.isEmpty() ? "." : dir, exe);
            if (Files.isRegularFile(p) && Files.isExecutable(p)) {
                return p;
            }
        }
        return null;
    }
}
