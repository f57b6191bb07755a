package dev.innet.p4runtime;

import com.google.protobuf.TextFormat;
import dev.innet.p4sim.Main;
import dev.innet.p4sim.P4Sim;
import dev.innet.p4sim.v1model.P4Switch;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/** p4sim's P4Runtime options and what they do when p4sim compiles and starts its program. */
final class P4RuntimeOptions implements Main.Extension {
    private static final int HIGHEST_TCP_PORT = 65_535;

    @Option(names = "--p4info", paramLabel = "FILE",
            description = "write the program's P4Info (protobuf text format, as p4c writes it) to FILE; with --check, only that")
    Path p4infoFile;

    @Option(names = "--p4runtime-port", paramLabel = "N", converter = TcpPort.class,
            description = "serve P4Runtime v1 (gRPC) on TCP port N (0: any free port); default: no P4Runtime server")
    Integer p4runtimePort;

    /** A TCP port number, 0 (any free port) to 65535. */
    static final class TcpPort implements CommandLine.ITypeConverter<Integer> {
        @Override
        public Integer convert(String value) {
            int port;
            try {
                port = Integer.parseInt(value);
            } catch (NumberFormatException e) {
                throw new CommandLine.TypeConversionException("'" + value + "' is not a port number");
            }
            if (port < 0 || port > HIGHEST_TCP_PORT) {
                throw new CommandLine.TypeConversionException("port " + port + " is outside 0.." + HIGHEST_TCP_PORT);
            }
            return port;
        }
    }

    @Option(names = "--p4runtime-host", paramLabel = "ADDR",
            description = "address the P4Runtime server binds (default: ${DEFAULT-VALUE})")
    String host = "127.0.0.1";

    @Option(names = "--device-id", paramLabel = "N", description = "the P4Runtime device id of this switch (default: ${DEFAULT-VALUE})")
    long deviceId = 1;

    private final PrintStream out;

    P4RuntimeOptions(PrintStream out) {
        this.out = out;
    }

    @Override
    public Object options() {
        return this;
    }

    @Override
    public void compiled(P4Sim.Program program) throws IOException {
        if (p4infoFile != null) {
            String text;
            try {
                text = TextFormat.printer().printToString(P4InfoBuilder.build(program));
            } catch (IllegalArgumentException e) {
                throw new IOException("cannot make the P4Info: " + e.getMessage(), e);
            }
            try {
                Files.writeString(p4infoFile, text);
            } catch (IOException e) {
                throw new IOException("cannot write the P4Info to " + p4infoFile + ": " + e, e);
            }
            out.println("p4sim: wrote the P4Info to " + p4infoFile);
        }
    }

    @Override
    public AutoCloseable started(P4Sim.Program program, Path programFile, P4Switch sw, Object lock) throws IOException {
        if (p4runtimePort == null) {
            return () -> { };
        }
        byte[] source = Files.readAllBytes(programFile);
        P4RuntimeServer server = P4RuntimeServer.start(host, p4runtimePort, deviceId, program, source, sw, lock);
        out.println("p4sim: P4Runtime server on " + host + ":" + server.port() + " (device id " + deviceId + ")");
        return server;
    }
}
