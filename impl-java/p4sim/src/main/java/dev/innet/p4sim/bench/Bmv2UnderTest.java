package dev.innet.p4sim.bench;

import dev.innet.p4sim.bmv2.Bmv2CliControl;
import dev.innet.p4sim.bmv2.Bmv2Tools;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * bmv2's {@code simple_switch} as the switch under test: the program compiled with p4c's bmv2 back end, the
 * switch started on the benchmark's interface with its Thrift port on a free local port, and the prepared
 * state copied in through {@code simple_switch_CLI} ({@link PreparedScenario#copyTo}). Its CPU time is the
 * whole process's, all threads (bmv2 has no single pipeline thread to single out); its receive drops are
 * not visible from outside (-1). Tested here against the stand-in tools of ptf/tests/bmv2-standin, since
 * bmv2 and p4c cannot be installed on this machine (docs/p4sim.md, "Benchmark").
 */
final class Bmv2UnderTest implements SwitchUnderTest {
    private static final Duration START = Duration.ofSeconds(90);

    private final Process process;
    private final Bmv2CliControl cli;
    private final Path program;

    private Bmv2UnderTest(Process process, Bmv2CliControl cli, Path program) {
        this.process = process;
        this.cli = cli;
        this.program = program;
    }

    /**
     * Starts bmv2 with the tools found, compiling into {@code workDir}; {@code includeDir} is the programs'
     * include directory (p4/).
     */
    static SwitchUnderTest.Starter with(Bmv2Tools tools, Path includeDir, Path workDir) {
        return (scenario, iface) -> {
            Files.createDirectories(workDir);
            Path program = scenario.program().toAbsolutePath();
            Path compileLog = workDir.resolve("p4c.log");
            Process p4c = new ProcessBuilder(tools.compileCommand(program, includeDir, workDir)).redirectErrorStream(true)
                    .redirectOutput(compileLog.toFile()).start();
            Path json = Bmv2Tools.jsonOf(program, workDir);
            if (p4c.waitFor() != 0 || !Files.isRegularFile(json)) {
                throw new IOException("p4c could not compile " + program + " for bmv2: " + tail(compileLog));
            }
            int thrift = freeTcpPort();
            Path switchLog = workDir.resolve("simple_switch.log");
            List<String> command = tools.switchCommand(List.of(scenario.workloadPort() + "@" + iface), thrift, json);
            Process sw = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(switchLog.toFile()).start();
            Bmv2CliControl cli = null;
            try {
                cli = connect(tools, thrift, sw, switchLog);
                int cells = scenario.copyTo(cli);
                System.err.printf("bench: bmv2 prepared through simple_switch_CLI: %d control calls, %d register cells%n",
                        scenario.calls().size(), cells);
                return new Bmv2UnderTest(sw, cli, tools.simpleSwitch());
            } catch (Exception e) {
                if (cli != null) {
                    cli.close();
                }
                stop(sw);
                throw e;
            }
        };
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

    private static int freeTcpPort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    private static String tail(Path log) {
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
    public String description() {
        return "bmv2 " + program;
    }

    @Override
    public long cpuNanos() {
        return process.info().totalCpuDuration().map(Duration::toNanos).orElse(0L);
    }

    @Override
    public long receiveDrops() {
        return -1;
    }

    /** The switch process's id (tests check what the stand-in became). */
    long pid() {
        return process.pid();
    }

    @Override
    public void close() throws InterruptedException {
        cli.close();
        stop(process);
    }
}
