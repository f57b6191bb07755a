package dev.innet.p4sim.bmv2;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * bmv2's tools as found on a search path: the P4 compiler's bmv2 back end ({@code p4c-bm2-ss}, or the
 * {@code p4c} driver), the switch ({@code simple_switch}, or {@code simple_switch_grpc}) and its runtime CLI
 * ({@code simple_switch_CLI}). {@link #find} says exactly what is missing and where it comes from, so a
 * {@code --target bmv2} command can refuse with one clear line before it makes anything (docs/ptf.md, bmv2).
 */
public record Bmv2Tools(Path compiler, Path simpleSwitch, Path cli) {

    /** The program's bmv2 JSON, compiled into {@code outDir}: the compiler's command line. */
    public List<String> compileCommand(Path program, Path includeDir, Path outDir) {
        String name = program.getFileName().toString().replaceFirst("\\.p4$", "");
        if (compiler.getFileName().toString().equals("p4c-bm2-ss")) {
            return List.of(compiler.toString(), "--arch", "v1model", "-I", includeDir.toString(), "-o",
                    outDir.resolve(name + ".json").toString(), program.toString());
        }
        return List.of(compiler.toString(), "--target", "bmv2", "--arch", "v1model", "-I", includeDir.toString(), "-o",
                outDir.toString(), program.toString());
    }

    /** Where {@link #compileCommand} leaves the JSON. */
    public static Path jsonOf(Path program, Path outDir) {
        return outDir.resolve(program.getFileName().toString().replaceFirst("\\.p4$", "") + ".json");
    }

    /** simple_switch on these ports ({@code PORT@IFACE}) with its Thrift server on {@code thriftPort}. */
    public List<String> switchCommand(List<String> ports, int thriftPort, Path json) {
        List<String> cmd = new ArrayList<>(List.of(simpleSwitch.toString()));
        for (String p : ports) {
            cmd.add("-i");
            cmd.add(p);
        }
        cmd.addAll(List.of("--thrift-port", Integer.toString(thriftPort), json.toString()));
        return cmd;
    }

    /** The tools on {@code searchPath} (a PATH value), or an exception whose message names each missing one. */
    public static Bmv2Tools find(String searchPath) throws Missing {
        Optional<Path> compiler = onPath("p4c-bm2-ss", searchPath).or(() -> onPath("p4c", searchPath));
        Optional<Path> sw = onPath("simple_switch", searchPath).or(() -> onPath("simple_switch_grpc", searchPath));
        Optional<Path> cli = onPath("simple_switch_CLI", searchPath);
        List<String> missing = new ArrayList<>();
        if (compiler.isEmpty()) {
            missing.add("p4c (p4c-bm2-ss or p4c: install p4c, https://github.com/p4lang/p4c)");
        }
        if (sw.isEmpty()) {
            missing.add("simple_switch (install bmv2, https://github.com/p4lang/behavioral-model)");
        }
        if (cli.isEmpty()) {
            missing.add("simple_switch_CLI (installed with bmv2's Python runtime CLI)");
        }
        if (!missing.isEmpty()) {
            throw new Missing("--target bmv2 needs on PATH: " + String.join("; ", missing)
                    + " (bmv2 cannot be installed on this machine: use --target p4sim)");
        }
        return new Bmv2Tools(compiler.get(), sw.get(), cli.get());
    }

    public static Optional<Path> onPath(String exe, String searchPath) {
        if (searchPath == null) {
            return Optional.empty();
        }
        for (String dir : searchPath.split(File.pathSeparator)) {
            Path p = Path.of(dir.isEmpty() ? "." : dir, exe);
            if (Files.isRegularFile(p) && Files.isExecutable(p)) {
                return Optional.of(p.toAbsolutePath());
            }
        }
        return Optional.empty();
    }

    /** Some of bmv2's tools are not on the search path; the message names them. */
    public static final class Missing extends Exception {
        public Missing(String message) {
            super(message);
        }
    }
}
