package dev.innet.pegasus;

/**
 * The trace events Pegasus's Java nodes emit for trace validation (implementation -> spec,
 * specs/pegasus/PegasusTrace.tla; docs/conformance.md, "Pegasus: trace validation"). The switch's steps
 * are the rack's record of the UDP frames it processed and sent ({@code switchUdpIn}/{@code switchUdpOut});
 * these are the steps only a host sees.
 */
public final class PegasusTraceEvents {
    private PegasusTraceEvents() {}

    /** The controller started: {@code servers}, the rack's server hosts by index, comma-separated. */
    public static final String CONTROLLER_START = "pegControllerStart";
    /**
     * The controller sent a virtual write (the spec's VirtualWrite): key, ver (ver_completed it read, writes
     * paused and drained), home (its host), fwd (bitmap of server indices to copy to), reqId.
     */
    public static final String CONTROLLER_VIRTUAL_WRITE = "pegVirtualWrite";
    /**
     * The controller sent one attempt of a removal rewrite (issue 16; the spec's RemovalRewrite, whose step is
     * where the switch stamps it): key, home (its host), reqId, exp (the version home's copy had when the
     * controller read it), from (the host whose copy is written: the newest), fromVer (that copy's version),
     * deleted (a tombstone or no copy: the write is a DELETE), value (hex). Its reads of every server's copy
     * are the servers' {@link #SERVER_READ} events with the controller as src.
     */
    public static final String CONTROLLER_REMOVAL_REWRITE = "pegRemovalRewrite";
    /**
     * A server handled a WRITE, DELETE or REPLICATE (the spec's ServerWrite): op, src (the sender's host),
     * reqId, key, ver, det, fwd, outcome (applied, superseded, duplicate, stale: a late copy of an older
     * request of the client, dropped unanswered), replyVer and replySrc (the reply's server field: index + 1,
     * 0 = none; absent for stale).
     */
    public static final String SERVER_WRITE = "pegServerWrite";
    /** A server answered a READ (the spec's ServerRead): src, reqId, key, replyVer, found, deleted, value (hex). */
    public static final String SERVER_READ = "pegServerRead";
    /**
     * A home server handled a VIRTUAL_WRITE (the spec's ServerVirtualWrite): reqId, key, ver (the request's),
     * raised (the version it now stores and copies), fwd.
     */
    public static final String SERVER_VIRTUAL_WRITE = "pegServerVirtualWrite";
}
