package dev.innet.p4sim.cli;

import dev.innet.switchapi.ControlException;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** A controller-side client of a p4sim control port: sends CLI commands, returns their output. */
public final class CliClient implements AutoCloseable {
    private final Socket socket;
    private final BufferedReader in;
    private final PrintWriter out;

    public CliClient(int port) throws IOException {
        this.socket = new Socket(InetAddress.getLoopbackAddress(), port);
        this.in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
        this.out = new PrintWriter(socket.getOutputStream(), false, StandardCharsets.UTF_8);
    }

    /** Runs one command; throws {@link ControlException} with the switch's message if it was rejected. */
    public List<String> command(String line) throws IOException {
        if (line.contains("\n")) {
            throw new IllegalArgumentException("one command per call");
        }
        out.print(line);
        out.print('\n');
        out.flush();
        List<String> lines = new ArrayList<>();
        while (true) {
            String l = in.readLine();
            if (l == null) {
                throw new IOException("control port closed the connection");
            }
            if (l.equals("ok")) {
                return lines;
            }
            if (l.startsWith("error: ")) {
                throw new ControlException(l.substring(7));
            }
            lines.add(l);
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
