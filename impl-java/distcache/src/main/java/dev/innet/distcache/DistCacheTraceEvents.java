package dev.innet.distcache;

import dev.innet.kv.store.StoredRecord;
import dev.innet.sim.TraceEvent;
import java.util.HexFormat;

/**
 * The trace events DistCache's Java nodes emit for trace validation (implementation -> spec,
 * docs/conformance.md, "DistCache: trace validation"). The cache switches' own steps (DistCache.tla's
 * ClientReadHit / ClientReadMiss, CacheInv, CacheUpdate) are observed by the rack instead: it records every
 * UDP frame each switch processed and the frames it sent in that step ({@code switchUdpIn} /
 * {@code switchUdpOut}, with the switch's name), and the simulator records a switch crash.
 *
 * <p>Keys are hex; {@code layer} is DcOp's number (1 upper, 2 lower); a record is {@code version},
 * {@code deleted} and {@code value} (hex, empty for a tombstone).
 */
public final class DistCacheTraceEvents {
    private DistCacheTraceEvents() {}

    /** The controller started: the network's shape and the servers, from which the placement of keys follows. */
    public static final String CONTROLLER_START = "dcControllerStart";
    /** A server took a client write (ServerWrite): client, reqId, key, the record it will apply, phaseOne. */
    public static final String SERVER_WRITE = "dcServerWrite";
    /** A server got an invalidation acknowledgement (ServerInvAck): key, layer, version, outcome. */
    public static final String SERVER_INV_ACK = "dcServerInvAck";
    /** Outcomes of {@link #SERVER_INV_ACK}: counted, the last one (write applied), ignored (old or duplicated). */
    public static final String ACK_COUNTED = "counted";
    public static final String ACK_APPLIED = "applied";
    public static final String ACK_STALE = "stale";
    /** A server's resend timer sent a layer's invalidation again (ServerResendInv): key, layer, version. */
    public static final String SERVER_RESEND_INV = "dcServerResendInv";
    /** A server answered a read that missed (ServerGet): client, reqId, key, the record. */
    public static final String SERVER_GET = "dcServerGet";
    /** A server answered an agent's FETCH with a fill (ServerFetch): key, layer, node, token, the record. */
    public static final String SERVER_FETCH = "dcServerFetch";
    /** An agent inserted a key, invalid, waiting for its token's fill (CacheInsert): node, layer, key, token. */
    public static final String CACHE_INSERT = "dcCacheInsert";
    /**
     * An agent gave a cached copy that stayed invalid a fresh token and asked its server for a fill
     * (CacheRefetch): node, layer, key, token.
     */
    public static final String CACHE_REFETCH = "dcCacheRefetch";
    /**
     * Just before the re-fill's token write (node, layer, key, token): on a live rack the write takes effect at
     * some moment between this event and {@link #CACHE_REFETCH}, and switch frames processed in between may
     * see the copy before or after it (DistCacheTrace.tla's refetch window).
     */
    public static final String CACHE_REFETCH_BEGIN = "dcCacheRefetchBegin";
    /**
     * An agent evicted a key (CacheEvict; also an insertion abandoned after its last FETCH): node, layer, key;
     * traced once the lookup entry's deletion was acknowledged.
     */
    public static final String CACHE_EVICT = "dcCacheEvict";
    /**
     * Just before an eviction's lookup-entry deletion (node, layer, key): as for a re-fill, the deletion takes
     * effect at the switch between this event and {@link #CACHE_EVICT}.
     */
    public static final String CACHE_EVICT_BEGIN = "dcCacheEvictBegin";
    /** A client's timer fired for its pending operation (a read sent again, or given up): reqId, attempt. */
    public static final String CLIENT_TIMEOUT = "dcClientTimeout";

    /** {@code event} with a record's fields. */
    public static TraceEvent withRecord(TraceEvent event, StoredRecord r) {
        return event.with("version", r.seq()).with("deleted", r.deleted())
                .with("value", r.deleted() ? "" : HexFormat.of().formatHex(r.value()));
    }

    public static String hex(byte[] key) {
        return HexFormat.of().formatHex(key);
    }
}
