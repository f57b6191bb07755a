package dev.innet.wire;

/**
 * The addressing plan of a simulated or live rack (docs/wire-format.md, "Addressing in a rack"):
 * host h has MAC 02:00:00:00:00:hh and IPv4 10.0.0.h; host 254 is the switch's CPU/controller port.
 */
public final class RackAddressing {
    public static final int MIN_HOST = 1;
    public static final int MAX_HOST = 253;
    public static final int CPU_HOST = 254;

    private RackAddressing() {}

    public static int hostIp(int host) {
        requireHost(host);
        return (10 << 24) | host;
    }

    public static long hostMac(int host) {
        requireHost(host);
        return 0x0200_0000_0000L | host;
    }

    /** The host number of a rack address, or -1 if the address is outside the rack's plan. */
    public static int hostOfIp(int ip) {
        int host = ip & 0xff;
        if ((ip & 0xffffff00) != (10 << 24) || host < MIN_HOST || host > CPU_HOST) {
            return -1;
        }
        return host;
    }

    public static String ipToString(int ip) {
        return ((ip >>> 24) & 0xff) + "." + ((ip >>> 16) & 0xff) + "." + ((ip >>> 8) & 0xff) + "." + (ip & 0xff);
    }

    public static int parseIp(String dotted) {
        String[] parts = dotted.split("\\.", -1);
        if (parts.length != 4) {
            throw new IllegalArgumentException("not a dotted-quad IPv4 address: " + dotted);
        }
        int ip = 0;
        for (String part : parts) {
            int octet = Integer.parseInt(part);
            if (octet < 0 || octet > 255) {
                throw new IllegalArgumentException("IPv4 octet out of range in " + dotted);
            }
            ip = (ip << 8) | octet;
        }
        return ip;
    }

    private static void requireHost(int host) {
        if (host < MIN_HOST || host > CPU_HOST) {
            throw new IllegalArgumentException("host number must be in 1..254, got " + host);
        }
    }
}
