package dev.innet.protocol;

import dev.innet.wire.RackAddressing;

/**
 * Which switch port each host of a simulated rack is cabled to. Host h sits on port h, except the
 * controller (host 254), which sits on the P4 programs' CPU_PORT 64 (docs/p4-programs.md §2.2); host
 * 64 therefore does not exist in a rack.
 */
public final class RackPorts {
    /** CPU_PORT in p4/include/defines.p4. */
    public static final int CPU_PORT = 64;
    public static final int CONTROLLER_HOST = RackAddressing.CPU_HOST;

    private RackPorts() {}

    public static int portOf(int host) {
        if (host == CONTROLLER_HOST) {
            return CPU_PORT;
        }
        if (host == CPU_PORT || host < RackAddressing.MIN_HOST || host > RackAddressing.MAX_HOST) {
            throw new IllegalArgumentException("host " + host + " cannot be cabled in a rack (64 is the CPU port)");
        }
        return host;
    }
}
