package dev.innet.sim.live;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.Channels;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Function;

/**
 * A host process's command socket: a Unix socket in the rack's state directory, so {@code rack up} and
 * {@code rack run} reach every host whatever its network namespace (namespaces do not separate the file
 * system); the simulated rack service of {@code ./innet ycsb} answers on the same kind of socket for each
 * of its client hosts. One request line, one reply line per connection. The server side is an edge thread of the
 * host process; each connection gets a virtual thread, since a workload request waits until it is done.
 */
public final class CommandSocket implements AutoCloseable {
    private final Path path;
    private final ServerSocketChannel server;
    private final Thread acceptor;

    private CommandSocket(Path path, ServerSocketChannel server, Function<String, String> handler) {
        this.path = path;
        this.server = server;
        this.acceptor = Thread.ofPlatform().daemon().name("innet-command-socket").start(() -> accept(handler));
    }

    /** Listens on {@code path} (replacing a stale socket file a killed predecessor left). */
    public static CommandSocket listen(Path path, Function<String, String> handler) throws IOException {
        Files.createDirectories(path.getParent());
        Files.deleteIfExists(path);
        ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
        server.bind(UnixDomainSocketAddress.of(path));
        return new CommandSocket(path, server, handler);
    }

    private void accept(Function<String, String> handler) {
        while (server.isOpen()) {
            SocketChannel ch;
            try {
                ch = server.accept();
            } catch (IOException e) {
                return; // closed
            }
            Thread.ofVirtual().start(() -> serve(ch, handler));
        }
    }

    private static void serve(SocketChannel ch, Function<String, String> handler) {
        try (ch) {
            BufferedReader in = new BufferedReader(new InputStreamReader(Channels.newInputStream(ch), StandardCharsets.UTF_8));
            String request = in.readLine();
            String reply;
            try {
                reply = request == null ? "error: empty request" : handler.apply(request.strip());
            } catch (RuntimeException e) {
                reply = "error: " + e.getMessage();
            }
            OutputStream out = Channels.newOutputStream(ch);
            out.write((reply.replace('\n', ' ') + "\n").getBytes(StandardCharsets.UTF_8));
            out.flush();
        } catch (IOException e) {
            // the asker went away: nothing to answer
        }
    }

    /**
     * Sends {@code request} to the socket at {@code path} and returns the reply line. Throws if nobody
     * listens there or no reply comes within {@code timeoutMillis}.
     */
    public static String ask(Path path, String request, long timeoutMillis) throws IOException {
        try (SocketChannel ch = SocketChannel.open(UnixDomainSocketAddress.of(path))) {
            ch.write(java.nio.ByteBuffer.wrap((request + "\n").getBytes(StandardCharsets.UTF_8)));
            // a blocking Unix socket has no read timeout: a watchdog closes it instead
            Thread watchdog = Thread.ofVirtual().start(() -> {
                try {
                    Thread.sleep(timeoutMillis);
                    ch.close();
                } catch (InterruptedException | IOException e) {
                    // finished in time, or closed already
                }
            });
            try {
                BufferedReader in = new BufferedReader(new InputStreamReader(Channels.newInputStream(ch), StandardCharsets.UTF_8));
                String reply = in.readLine();
                if (reply == null) {
                    // the host closed the connection without answering: it died (or its socket was closed)
                    throw new java.io.EOFException("no reply from " + path + ": the connection closed (the process died?)");
                }
                return reply;
            } catch (java.io.EOFException e) {
                throw e;
            } catch (IOException e) {
                throw new IOException("no reply from " + path + " within " + timeoutMillis + " ms", e);
            } finally {
                watchdog.interrupt();
            }
        }
    }

    @Override
    public void close() {
        try {
            server.close();
        } catch (IOException e) {
            // shutting down
        }
        try {
            Files.deleteIfExists(path);
        } catch (IOException e) {
            // a stale socket file is replaced by the next listener
        }
        acceptor.interrupt();
    }
}
