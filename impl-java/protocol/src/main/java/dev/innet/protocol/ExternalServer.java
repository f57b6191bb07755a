package dev.innet.protocol;

import java.util.List;

/**
 * A server program that a live rack runs on its server hosts in place of the protocol's own server
 * node: LaKe's hosts run the real memcached (docs/lake.md). The live harness starts the program in the
 * server's namespace, records and stops it by pid like any host process, and checks its health with a
 * request through the switch: the program has no command socket of its own.
 */
public interface ExternalServer {
    /** The executable, looked up on PATH ({@code memcached}). */
    String program();

    /** The Debian package that installs it, for the message when it is missing. */
    String debianPackage();

    /**
     * The arguments that run the program in the foreground, serving on {@code address} only;
     * {@code asRoot}: the harness runs as root (memcached must then be told which user to become).
     */
    List<String> arguments(String address, boolean asRoot);

    /** The UDP port the program answers on; the health probe is sent there. */
    int udpPort();

    /**
     * One UDP payload the program answers without changing its state, and which the switch cannot
     * answer itself, so an answer shows that the program and the path through the switch both work.
     */
    byte[] probeRequest();

    /** Whether {@code udpPayload} is the program's answer to {@link #probeRequest()}. */
    boolean answersProbe(byte[] udpPayload);

    /**
     * Whether the program keeps its data across a kill and restart. memcached does not: a killed
     * memcached comes back empty, which is memcached's own behaviour, not a protocol fault.
     */
    boolean durable();

    /**
     * What the switch must forget before server host {@code server} (one of the rack's {@code servers}),
     * which is not {@link #durable()}, starts again, empty: anything it cached from that server, and the
     * requests it has in flight to it (their replies would bring the lost items back). The live harness
     * calls this through the controller before it restarts the program, while the program is down. Nothing
     * by default.
     */
    default void forgetBeforeRestart(dev.innet.switchapi.SwitchControl control, int server,
            java.util.List<Integer> servers) {
    }
}
