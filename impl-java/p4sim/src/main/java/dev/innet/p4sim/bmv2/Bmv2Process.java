package dev.innet.p4sim.bmv2;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One bmv2 {@code simple_switch} run by this process: the program compiled with p4c's bmv2 back end, the switch
 * started on the given interfaces with its Thrift port on a free local port, and its runtime CLI connected
 * once that port answers. {@link #close} stops the CLI, the switch and whatever the switch started, by pid.
 * Used where p4sim runs live and bmv2 may stand in: {@code bench p4sim} and {@code stf --target bmv2}.
 */
public final class Bmv2Process implements AutoCloseable {
    private static final Duration START = Duration.ofSeconds(90);

    private final Process process;
    private final Bmv2CliControl cli;

    private Bmv2Process(Process process, Bmv2CliControl cli) {
        this.process = process;
        this.cli = cli;
    }

    /**
     * Compiles {@code program} into {@code workDir} ({@code includeDir} on the include path; the compiler's
     * output in {@code p4c.log}), starts simple_switch on {@code interfaces} ({@code PORT@IFACE}; its output in
     * {@code simple_switch.log}) and connects the CLI.
     */
    public static Bmv2Process start(Bmv2Tools tools, Path program, Path includeDir, List<String> interfaces, Path workDir)
            throws IOException, InterruptedException {
        Files.createDirectories(workDir);
        Path source = program.toAbsolutePath();
        Path compileLog = workDir.resolve("p4c.log");
        Process p4c = new ProcessBuilder(tools.compileCommand(source, includeDir, workDir)).redirectErrorStream(true)
                .redirectOutput(compileLog.toFile()).start();
        Path json = Bmv2Tools.jsonOf(source, workDir);
        if (p4c.waitFor() != 0 || !Files.isRegularFile(json)) {
            throw new IOException("p4c could not compile " + source + " for bmv2: " + tail(compileLog));
        }
        int thrift = freeTcpPort();
        Path switchLog = workDir.resolve("simple_switch.log");
        Process sw = new ProcessBuilder(tools.switchCommand(interfaces, thrift, json)).redirectErrorStream(true)
                .redirectOutput(switchLog.toFile()).start();
        try {
            return new Bmv2Process(sw, connect(tools, thrift, sw, switchLog));
        } catch (IOException | InterruptedException | RuntimeException e) {
            stop(sw);
            throw e;
        }
    }

    /** The runtime CLI, once the switch's Thrift port answers (simple_switch loads its JSON first). */
    private static Bmv2CliControl connect(Bmv2Tools tools, int thrift, Process sw, Path log)
            throws IOException, InterruptedException {
        long deadline = System.nanoTime() + START.toNanos();
        while (true) {
            if (!sw.isAlive()) {
                throw new IOException("simple_switch exited (" + sw.exitValue() + "): " + tail(log));
            }
            try {
                return new Bmv2CliControl(tools.cli(), thrift);
            } catch (IOException notYet) {
                if (System.nanoTime() > deadline) {
                    throw new IOException("simple_switch's Thrift port " + thrift + " did not answer within "
                            + START.toSeconds() + " s: " + notYet.getMessage() + "; switch log: " + tail(log));
                }
                Thread.sleep(200);
            }
        }
    }

    public Bmv2CliControl cli() {
        return cli;
    }

    /** The switch's CPU time so far, all threads. */
    public Duration cpu() {
        return process.info().totalCpuDuration().orElse(Duration.ZERO);
    }

    public boolean alive() {
        return process.isAlive();
    }

    private static int freeTcpPort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join(" | ", lines.subList(Math.max(0, lines.size() - 5), lines.size()));
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    private static void stop(Process sw) throws InterruptedException {
        sw.descendants().forEach(ProcessHandle::destroyForcibly);
        sw.destroyForcibly();
        sw.waitFor(10, TimeUnit.SECONDS);
    }

    @Override
    public void close() throws InterruptedException {
        cli.close();
        stop(process);
    }
}
