package dev.innet.sim.live;

import dev.innet.wire.RackAddressing;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Maps innet endpoints (rack IPv4 address and UDP port, what frames carry) to the real socket
 * addresses the live network uses, and back. In a real rack the two are the same ({@link #identity()}:
 * host h really is 10.0.0.h). On one machine, e.g. in tests, every endpoint is a loopback port
 * registered when its socket is bound ({@link #mapped()}). Thread-safe: receiver threads read it.
 */
public final class AddressBook {
    /** An innet endpoint: what a frame's IP and UDP headers say. */
    public record Endpoint(int ip, int port) {
        @Override
        public String toString() {
            return RackAddressing.ipToString(ip) + ":" + port;
        }
    }

    private final boolean identity;
    private final ConcurrentHashMap<Endpoint, InetSocketAddress> realByInnet = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<InetSocketAddress, Endpoint> innetByReal = new ConcurrentHashMap<>();

    private AddressBook(boolean identity) {
        this.identity = identity;
    }

    /** Real addresses are innet addresses (hosts in network namespaces or a real rack). */
    public static AddressBook identity() {
        return new AddressBook(true);
    }

    /** Every endpoint must be registered (hosts on one machine). */
    public static AddressBook mapped() {
        return new AddressBook(false);
    }

    public boolean isIdentity() {
        return identity;
    }

    public void register(Endpoint innet, InetSocketAddress real) {
        if (identity) {
            throw new IllegalStateException("an identity address book has nothing to register");
        }
        InetSocketAddress previous = realByInnet.putIfAbsent(innet, real);
        if (previous != null && !previous.equals(real)) {
            throw new IllegalStateException(innet + " already maps to " + previous);
        }
        innetByReal.put(real, innet);
    }

    /** Where to send a frame addressed to {@code innet}, or null if nobody has that endpoint. */
    public InetSocketAddress real(Endpoint innet) {
        if (identity) {
            return new InetSocketAddress(toInetAddress(innet.ip()), innet.port());
        }
        return realByInnet.get(innet);
    }

    /** Which innet endpoint a datagram came from, or null if it is not one of ours. */
    public Endpoint innet(InetSocketAddress real) {
        if (identity) {
            if (!(real.getAddress() instanceof Inet4Address v4)) {
                return null;
            }
            byte[] b = v4.getAddress();
            int ip = ((b[0] & 0xff) << 24) | ((b[1] & 0xff) << 16) | ((b[2] & 0xff) << 8) | (b[3] & 0xff);
            return new Endpoint(ip, real.getPort());
        }
        return innetByReal.get(real);
    }

    static InetAddress toInetAddress(int ip) {
        try {
            return InetAddress.getByAddress(new byte[] {(byte) (ip >>> 24), (byte) (ip >>> 16), (byte) (ip >>> 8), (byte) ip});
        } catch (UnknownHostException e) {
            throw new IllegalStateException("four bytes are always an address", e);
        }
    }
}
