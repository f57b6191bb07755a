package dev.innet.lake;

/**
 * The trace events LaKe's Java nodes emit for trace validation (implementation -> spec, docs/conformance.md,
 * "LaKe"). The data plane's steps (Lake.tla's ClientSet, ClientGetHit, ClientGetMiss, LakeReply, Reset) are
 * observed by the rack instead: it records every UDP frame the switch processed and the frames it sent in
 * that step ({@code switchUdpIn}/{@code switchUdpOut}), and the simulator records a switch crash.
 */
public final class LakeTraceEvents {
    private LakeTraceEvents() {}

    /**
     * memcached (the simulator's host) started with no items (the event's host). A second one for the same
     * host is a restart, which Lake.tla does not model.
     */
    public static final String HOST_START = "mcStart";

    /**
     * memcached applied one request (Lake.tla's HostSet / HostGet): {@code op} (get, set, delete, ...),
     * {@code opaque} (LaKe's tag), {@code key} (hex), {@code value} (hex: a SET's value, a GET hit's value,
     * empty otherwise) and {@code status} (memcached's status code).
     */
    public static final String HOST_REQUEST = "mcRequest";

    /**
     * A client's timer fired for its pending operation (Lake.tla's ClientGiveUp, without its guard, see
     * specs/lake/LakeTrace.tla): {@code op} (get, set, delete) and {@code retry} (a GET sent again).
     */
    public static final String CLIENT_TIMEOUT = "clientTimeout";
}
