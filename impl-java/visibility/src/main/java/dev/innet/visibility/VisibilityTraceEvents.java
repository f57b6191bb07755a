package dev.innet.visibility;

import dev.innet.sim.TraceEvent;
import java.util.HexFormat;

/**
 * The trace events the visibility layer's Java nodes emit for trace validation (implementation -> spec,
 * docs/conformance.md, "Trace validation: Visibility"), through {@code NodeContext.trace}. The switch's own
 * steps (Visibility.tla's SwWriteReply, SwMetaReply, SwClear, SwRead) are observed by the rack instead: it
 * records every UDP frame p4/visibility.p4 processed and the frames it sent in that step
 * ({@code switchUdpIn}/{@code switchUdpOut}), and the simulator records a switch crash. Keys are hex; a log
 * address is its data node ({@code dataNode}) and position; {@code client} is a client's host number.
 */
public final class VisibilityTraceEvents {
    private VisibilityTraceEvents() {}

    /** client: an operation starts (InvokeWrite / InvokeRead): op (put, delete, get), reqId, key, slot, fp. */
    public static final String CLIENT_OP = "visClientOp";
    /** client: a phase's request sent again after the timeout: reqId, phase (writeData, writeMeta, readMeta, readData). */
    public static final String CLIENT_RESEND = "visClientResend";
    /** client: a reply reached the client (before it acts on it): op, reqId, status, visible, seq. */
    public static final String CLIENT_RECV = "visClientRecv";
    /** data node: a WRITE handled (DnWrite): client, reqId, key, ts, position, retry (the request wrote before). */
    public static final String DN_WRITE = "visDnWrite";
    /** data node: a DATA_READ handled (DnRead): client, reqId, key, position, valid (the entry holds the key). */
    public static final String DN_READ = "visDnRead";
    /** metadata node: a READ answered (MdnRead): client, reqId, key, found, dataNode, position. */
    public static final String MDN_READ = "visMdnRead";
    /** metadata node: a second phase applied (MdnUpdate): client, reqId, key, ts, dataNode, position. */
    public static final String MDN_UPDATE = "visMdnUpdate";
    /** metadata node: an asynchronous update buffered (MdnDefer): key, ts, dataNode, position. */
    public static final String MDN_DEFER = "visMdnDefer";
    /** metadata node: the buffer applied as one batch, a clear sent per update (MdnBatch): updates. */
    public static final String MDN_BATCH = "visMdnBatch";
    /** metadata node: a CLEAR_ACK received (MdnClrAck): key, ts. */
    public static final String MDN_CLEAR_ACK = "visMdnClearAck";
    /** metadata node: an unacknowledged clear sent again (MdnClearTimeout): key, ts. */
    public static final String MDN_CLEAR_RESEND = "visMdnClearResend";
    /**
     * metadata node: a rebuild of the index from the data nodes begins (its later rounds, re-sent after a timeout, are
     * no new rebuild): cause ({@code start}: the node's start, after a crash when its incarnation is above 0;
     * {@code resync}: a switch OS's RESYNC, after the buffer was drained), round.
     */
    public static final String MDN_REBUILD_START = "visMdnRebuildStart";
    /** metadata node: the rebuild is complete (every data node's records applied; reads answered again): keys. */
    public static final String MDN_REBUILT = "visMdnRebuilt";
    /** metadata node: one key's newest log entry from a data node applied to the index (rebuild): key, ts, dataNode, position. */
    public static final String MDN_REBUILD_RECORD = "visMdnRebuildRecord";
    /** switch OS: a slot's MaxTs reloaded at the end of a resynchronisation: slot, ts (before RESYNC_DONE). */
    public static final String RESYNC_MAX_TS = "visResyncMaxTs";
    /** switch OS: the resynchronisation ended, acceleration on (SwResync): round. */
    public static final String RESYNC_DONE = "visResyncDone";
    /** switch OS: a stale entry's update re-sent (SwStaleTimeout): slot, dataNode, position. */
    public static final String STALE_RESEND = "visStaleResend";

    public static String hex(byte[] bytes) {
        return HexFormat.of().formatHex(bytes);
    }

    public static TraceEvent of(String kind) {
        return TraceEvent.of(kind);
    }
}
