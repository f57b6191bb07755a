package dev.innet.p4sim;

import dev.innet.cli.Cli;
import dev.innet.cli.ExistingDirectory;
import dev.innet.cli.ExistingFile;
import dev.innet.cli.NetworkInterfaceName;
import dev.innet.p4sim.cli.CliSession;
import dev.innet.p4sim.cli.ControlServer;
import dev.innet.switchapi.ControlException;
import dev.innet.p4sim.frontend.CompileError;
import dev.innet.p4sim.ports.FrameTraceWriter;
import dev.innet.p4sim.ports.LiveSwitch;
import dev.innet.p4sim.v1model.P4Switch;
import dev.innet.p4sim.v1model.SwitchConfig;
import dev.innet.wire.RackAddressing;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code p4sim --program p4/x.p4 -i 0@veth0 -i 1@veth1 [--control-port 9090] [--cpu-port N]
 * [--commands sN-commands.txt] [-I includedir] [--seed S] [--trace-frames FILE --trace-clients H,...] [--check]}: runs a program on Linux
 * interfaces where {@code simple_switch} would, with bmv2's CLI command language on the control port.
 * {@code --check} only compiles the program and reports errors.
 *
 * <p>Every argument is checked before anything starts (files exist, numbers are numbers, interfaces
 * exist): a bad one is one line on stderr and exit 2, with nothing compiled and no socket opened.
 */
@Command(name = "p4sim", sortOptions = false, usageHelpAutoWidth = true,
        description = "Runs a P4-16 v1model program on Linux interfaces, as simple_switch would, with bmv2's "
                + "runtime-CLI commands on a TCP control port (docs/p4sim.md).")
public final class Main implements Callable<Integer> {
    static final int EXIT_OK = 0;
    /** A compile error, or a --commands line the switch rejects. */
    static final int EXIT_FAILED = 1;
    private static final int HIGHEST_TCP_PORT = 65_535;

    @Spec
    private CommandSpec spec;

    @Option(names = "--program", required = true, paramLabel = "FILE.p4", converter = ExistingFile.class,
            description = "the P4-16 v1model program")
    private Path program;

    @Option(names = "-I", paramLabel = "DIR", converter = ExistingDirectory.class,
            description = "a directory searched for #include files (repeatable)")
    private List<Path> includes = new ArrayList<>();

    @Option(names = {"-i", "--interface"}, paramLabel = "PORT@IFACE", converter = PortOnInterface.Converter.class,
            description = "attach the existing Linux interface IFACE as switch port PORT (repeatable)")
    private List<PortOnInterface> interfaces = new ArrayList<>();

    @Option(names = "--control-port", paramLabel = "N",
            description = "TCP port of the runtime-CLI control server on loopback (0: any free port; default: ${DEFAULT-VALUE})")
    private int controlPort = 9090;

    // A separate option rather than an alias, so that the help and the errors lead with p4sim's own name.
    @Option(names = "--thrift-port", paramLabel = "N", description = "the same as --control-port (simple_switch's name)")
    private void thriftPort(int port) {
        controlPort = port;
    }

    @Option(names = "--cpu-port", paramLabel = "N",
            description = "switch port that stands for the CPU (packet-in/packet-out); default: none")
    private int cpuPort = -1;

    @Option(names = "--commands", paramLabel = "FILE", converter = ExistingFile.class,
            description = "runtime-CLI commands run before the switch starts, as in an sN-commands.txt")
    private Path commands;

    @Option(names = "--seed", paramLabel = "S", description = "seed of the switch's random() extern (default: ${DEFAULT-VALUE})")
    private long seed = 1;

    @Option(names = "--io", paramLabel = "ring|socket", converter = IoConverter.class,
            description = "how frames move on the -i ports: ring (memory-mapped PACKET_MMAP rings, one pipeline thread; "
                    + "falls back to socket where rings are unavailable) or socket (one system call per frame; "
                    + "lowest latency when idle) (default: ring)")
    private LiveSwitch.Io io = LiveSwitch.Io.RING;

    @Option(names = "--trace-frames", paramLabel = "FILE", description = "append a trace event (NDJSON, host 0) to FILE "
            + "for each message from a --trace-clients host the pipeline processes (switchIn) and each it sends to one "
            + "(switchOut), stamped with the machine's monotonic clock: a live rack's trace validation (docs/live-rack.md)")
    private Path traceFrames;

    @Option(names = "--trace-clients", paramLabel = "H,H,...", split = ",",
            description = "the rack's client hosts (host numbers) whose messages --trace-frames records")
    private List<Integer> traceClients = new ArrayList<>();

    @Option(names = "--trace-udp-frames", description = "with --trace-frames: record every UDP frame between rack hosts "
            + "instead (switchUdpIn for each frame processed, then switchUdpOut for each sent in that step, with the step's "
            + "stamp): the protocols whose trace validation reads the switch's UDP frames (LaKe, DistCache, Pegasus, visibility)")
    private boolean traceUdpFrames;

    @Option(names = "--trace-switch", paramLabel = "NAME", description = "with --trace-frames: write NAME as field "
            + "switch of every frame event (one p4sim of a network of several switches)")
    private String traceSwitch;

    @Option(names = "--check", description = "only compile the program: print FILE: ok, or the error (exit 1)")
    private boolean checkOnly;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "show this help and exit")
    private boolean help;

    private final PrintStream out;
    private final PrintStream err;
    private final Extension extension;

    /**
     * What another module adds to this command (impl-java/p4runtime: {@code --p4info}, {@code --p4runtime-port})
     * without p4sim depending on it: options, and calls at the two points where the program is known.
     */
    public interface Extension {
        /** An object with picocli {@code @Option} fields, added to this command's options. */
        Object options();

        /** The program compiled (also with {@code --check}); a problem is reported as {@code IOException}. */
        void compiled(P4Sim.Program program) throws IOException;

        /**
         * The switch is about to start; calls into it must hold {@code lock}. The returned resource is
         * closed when p4sim stops.
         */
        AutoCloseable started(P4Sim.Program program, Path programFile, P4Switch sw, Object lock) throws IOException;
    }

    Main(PrintStream out, PrintStream err) {
        this(out, err, null);
    }

    Main(PrintStream out, PrintStream err, Extension extension) {
        this.out = out;
        this.err = err;
        this.extension = extension;
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    static int run(String[] args, PrintStream out, PrintStream err) {
        return Cli.run("p4sim", new Main(out, err), args, out, err);
    }

    /** p4sim's command with {@code extension}'s options and hooks; returns the exit code. */
    public static int run(String[] args, PrintStream out, PrintStream err, Extension extension) {
        return Cli.run("p4sim", new Main(out, err, extension), java.util.Map.of("extension", extension.options()),
                args, out, err);
    }

    @Override
    public Integer call() throws Exception {
        requireArgumentsConsistent();
        P4Sim.Program compiled;
        try {
            compiled = P4Sim.compile(program, includes);
        } catch (CompileError e) {
            err.println(e.getMessage());
            return EXIT_FAILED;
        }
        compiled.checked().warnings().forEach(err::println);
        if (extension != null) {
            try {
                extension.compiled(compiled);
            } catch (IOException e) {
                err.println("p4sim: " + e.getMessage());
                return EXIT_FAILED;
            }
        }
        if (checkOnly) {
            out.println(program + ": ok");
            return EXIT_OK;
        }
        P4Switch sw = compiled.instantiate(SwitchConfig.defaults().withSeed(seed).withCpuPort(cpuPort));
        CliSession cli = new CliSession(sw);
        if (commands != null) {
            int lineNo = 0;
            for (String line : Files.readAllLines(commands)) {
                lineNo++;
                try {
                    cli.execute(line);
                } catch (ControlException e) {
                    err.println(commands + ":" + lineNo + ": " + e.getMessage());
                    return EXIT_FAILED;
                }
            }
        }
        LiveSwitch live = new LiveSwitch(sw, sw, io, err);
        for (PortOnInterface p : interfaces) {
            live.attach(p.port(), p.interfaceName());
        }
        dev.innet.p4sim.ports.PortFaults faults = live.enableFaults(seed);
        FrameTraceWriter frameTrace = traceFrames == null ? null : FrameTraceWriter.appendingTo(traceFrames,
                new FrameTraceWriter.Options(traceClients, traceUdpFrames, traceSwitch), err);
        if (frameTrace != null) {
            live.observeFrames(frameTrace);
        }
        try (ControlServer server = new ControlServer(controlPort, cli, sw);
             AutoCloseable extra = extension == null ? () -> { } : extension.started(compiled, program, sw, sw)) {
            server.portFaults(faults);
            if (frameTrace != null) {
                server.observeWrites(frameTrace);
            }
            live.start();
            out.println("p4sim: running " + program + " on " + interfaces + " (" + live.io().name().toLowerCase()
                    + " I/O), control port " + server.port());
            Runtime.getRuntime().addShutdownHook(new Thread(live::close));
            Thread.currentThread().join();
        }
        return EXIT_OK;
    }

    /** What no single converter can see: a port attached twice, a TCP port out of range. */
    private void requireArgumentsConsistent() {
        if (controlPort < 0 || controlPort > HIGHEST_TCP_PORT) {
            throw Cli.usageError(spec, "--control-port must be 0.." + HIGHEST_TCP_PORT + ", got " + controlPort);
        }
        if (traceFrames != null && traceClients.isEmpty()) {
            throw Cli.usageError(spec, "--trace-frames needs --trace-clients: only the clients' messages stand for spec steps");
        }
        if (traceFrames == null && !traceClients.isEmpty()) {
            throw Cli.usageError(spec, "--trace-clients is only used with --trace-frames");
        }
        if (traceFrames == null && (traceUdpFrames || traceSwitch != null)) {
            throw Cli.usageError(spec, (traceUdpFrames ? "--trace-udp-frames" : "--trace-switch") + " is only used with --trace-frames");
        }
        if (traceSwitch != null && !traceSwitch.matches("[A-Za-z0-9_-]{1,32}")) {
            throw Cli.usageError(spec, "--trace-switch must be a switch name (letters, digits, - and _), got '" + traceSwitch + "'");
        }
        for (int h : traceClients) {
            if (h < RackAddressing.MIN_HOST || h > RackAddressing.CPU_HOST) {
                throw Cli.usageError(spec, "--trace-clients: host " + h + " is outside " + RackAddressing.MIN_HOST + ".."
                        + RackAddressing.CPU_HOST);
            }
        }
        Set<Integer> ports = new HashSet<>();
        for (PortOnInterface p : interfaces) {
            if (!ports.add(p.port())) {
                throw Cli.usageError(spec, "port " + p.port() + " is attached twice (-i " + p + ")");
            }
        }
    }

    /** {@code --io}: lower-case names, and a bad one named in the error. */
    static final class IoConverter implements CommandLine.ITypeConverter<LiveSwitch.Io> {
        @Override
        public LiveSwitch.Io convert(String value) {
            return switch (value) {
                case "ring" -> LiveSwitch.Io.RING;
                case "socket" -> LiveSwitch.Io.SOCKET;
                default -> throw new CommandLine.TypeConversionException("--io must be ring or socket, got '" + value + "'");
            };
        }
    }

    /** One {@code -i PORT@IFACE}: a switch port and the existing Linux interface that carries it. */
    record PortOnInterface(int port, String interfaceName) {
        /** v1model's egress_spec is 9 bits and 511 is its drop port, so a real port is below that. */
        static final int HIGHEST_PORT = SwitchConfig.DROP_PORT - 1;

        @Override
        public String toString() {
            return port + "@" + interfaceName;
        }

        static final class Converter implements CommandLine.ITypeConverter<PortOnInterface> {
            @Override
            public PortOnInterface convert(String value) {
                int at = value.indexOf('@');
                if (at < 0) {
                    throw new CommandLine.TypeConversionException("interface must be PORT@NAME, got '" + value + "'");
                }
                String portText = value.substring(0, at);
                int port;
                try {
                    port = Integer.parseInt(portText);
                } catch (NumberFormatException e) {
                    throw new CommandLine.TypeConversionException(
                            "port '" + portText + "' in '" + value + "' is not a number");
                }
                if (port < 0 || port > HIGHEST_PORT) {
                    throw new CommandLine.TypeConversionException(
                            "port " + port + " in '" + value + "' is outside 0.." + HIGHEST_PORT);
                }
                return new PortOnInterface(port, NetworkInterfaceName.requireExisting(value.substring(at + 1)));
            }
        }
    }
}
