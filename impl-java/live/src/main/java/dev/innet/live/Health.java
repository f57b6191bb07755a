package dev.innet.live;

import dev.innet.sim.live.CommandSocket;
import java.io.IOException;

/** Asks a host of a live rack how it is, over its command socket. */
final class Health {
    static final long TIMEOUT_MILLIS = 3_000;

    private Health() {}

    /** The host's answer ({@code ok role=... ready=yes|no}), or a line saying why there was none. */
    static String ask(RackLayout layout, int host) {
        try {
            return CommandSocket.ask(layout.socketOf(host), "health", TIMEOUT_MILLIS);
        } catch (IOException e) {
            return "no answer (" + e.getMessage() + ")";
        }
    }

    static boolean ready(String answer) {
        return answer.startsWith("ok ") && answer.endsWith("ready=yes");
    }
}
