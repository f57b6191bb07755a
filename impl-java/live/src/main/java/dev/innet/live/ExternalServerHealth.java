package dev.innet.live;

import dev.innet.protocol.ExternalServer;
import dev.innet.protocol.Protocol;
import dev.innet.sim.live.CommandSocket;
import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Health checks of server hosts that run an existing program (LaKe's memcached) rather than a host
 * process of innet's: such a program has no command socket, so the controller process answers on the
 * server's socket ({@code sock/hN.sock}) in its place. Its answer to {@code health} is a probe through
 * the switch: the protocol's probe request ({@link ExternalServer#probeRequest}, for memcached a GET of
 * a key LaKe never caches) sent from the controller's rack address to the server's, over the
 * controller's link to the switch's CPU port; ready when the program's answer comes back in time.
 * Every other request is refused. An edge class: sockets and threads of the controller process.
 */
final class ExternalServerHealth {
    static final int PROBE_TIMEOUT_MILLIS = 1_000;

    private ExternalServerHealth() {}

    /** Listens on every server host's socket for {@code health}, probing from {@code fromHost}. */
    static List<CommandSocket> listen(RackLayout layout, Protocol protocol, int fromHost) throws IOException {
        ExternalServer server = protocol.externalServer().orElseThrow();
        List<CommandSocket> sockets = new ArrayList<>();
        for (int h : layout.servers()) {
            sockets.add(CommandSocket.listen(layout.socketOf(h), request -> answer(request, server, protocol.name(), h, fromHost)));
        }
        return sockets;
    }

    static String answer(String request, ExternalServer server, String protocolName, int host, int fromHost) {
        if (!request.strip().equals("health")) {
            return "error: h" + host + " runs " + server.program() + ", which has no command socket; the controller (h"
                    + fromHost + ") answers only 'health' for it";
        }
        String identity = "ok role=server protocol=" + protocolName + " host=" + host + " program=" + server.program();
        try {
            long micros = probe(server, RackLayout.ip(fromHost), RackLayout.ip(host), PROBE_TIMEOUT_MILLIS);
            return identity + " probe_us=" + micros + " ready=yes";
        } catch (IOException e) {
            return identity + " probe=\"" + e.getMessage() + "\" ready=no";
        }
    }

    /**
     * Sends the probe from {@code from} (an ephemeral port) to {@code to}'s program and waits for its
     * answer; returns the round trip in microseconds, or throws saying what went wrong.
     */
    static long probe(ExternalServer server, String from, String to, int timeoutMillis) throws IOException {
        try (DatagramSocket socket = new DatagramSocket(new InetSocketAddress(InetAddress.getByName(from), 0))) {
            InetSocketAddress target = new InetSocketAddress(InetAddress.getByName(to), server.udpPort());
            byte[] request = server.probeRequest();
            long started = System.nanoTime();
            long deadline = started + timeoutMillis * 1_000_000L;
            socket.send(new DatagramPacket(request, request.length, target));
            byte[] buffer = new byte[2048];
            while (true) {
                long left = (deadline - System.nanoTime()) / 1_000_000L;
                if (left <= 0) {
                    throw new IOException("no answer from " + server.program() + " at " + to + " within " + timeoutMillis + " ms");
                }
                socket.setSoTimeout((int) left);
                DatagramPacket reply = new DatagramPacket(buffer, buffer.length);
                try {
                    socket.receive(reply);
                } catch (SocketTimeoutException e) {
                    continue;
                }
                if (reply.getSocketAddress().equals(target)
                        && server.answersProbe(Arrays.copyOfRange(buffer, reply.getOffset(), reply.getOffset() + reply.getLength()))) {
                    return (System.nanoTime() - started) / 1_000;
                }
            }
        }
    }
}
