package dev.innet.lake.host;

import dev.innet.lake.wire.ByteString;
import dev.innet.lake.wire.McDatagram;
import dev.innet.lake.wire.McException;
import dev.innet.lake.wire.McFrame;
import dev.innet.lake.wire.McOpcode;
import dev.innet.lake.wire.McRequest;
import dev.innet.lake.wire.McResponse;
import dev.innet.lake.wire.McStatus;
import dev.innet.lake.wire.MemcachedUdpCodec;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The simulator's stand-in for the host's memcached: GET, SET and DELETE over the binary protocol,
 * with memcached's CAS semantics (one global counter; every stored item gets the next value; a
 * request with a non-zero CAS succeeds only on an item with that CAS) and its status texts. Live
 * racks run the real Debian {@code memcached} instead; {@code RealMemcachedAgreementTest} sends both
 * the same requests and compares the answers byte for byte.
 *
 * <p>Not modelled: expiry (items never expire: the simulator has no reason to advance memcached's
 * clock), eviction under memory pressure, and values above memcached's 1 MB item limit.
 */
public final class MemcachedBackend {
    static final String NOT_FOUND = "Not found";
    static final String EXISTS = "Data exists for key.";

    /** A stored item: its value, memcached's flags and its CAS (the global modification count when it was stored). */
    public record Item(ByteString value, int flags, long cas) { }

    private final Map<ByteString, Item> items = new HashMap<>();
    private long lastCas;

    /** The item memcached holds for {@code key}, if any, read without a request (for a spec replay's refinement mapping). */
    public Optional<Item> stored(ByteString key) {
        return Optional.ofNullable(items.get(key));
    }

    /** The CAS given to the last item stored: memcached's count of modifications so far. */
    public long lastCas() {
        return lastCas;
    }

    public McResponse handle(McRequest r) {
        Item item = items.get(r.key());
        return switch (r.opcode()) {
            case GET -> item == null
                    ? McResponse.status(McOpcode.GET, McStatus.KEY_NOT_FOUND, NOT_FOUND, r.opaque(), 0)
                    : McResponse.getHit(item.value(), item.flags(), r.opaque(), item.cas());
            case SET -> set(r, item);
            case DELETE -> delete(r, item);
        };
    }

    private McResponse set(McRequest r, Item item) {
        if (r.cas() != 0) {
            if (item == null) {
                return McResponse.status(McOpcode.SET, McStatus.KEY_NOT_FOUND, NOT_FOUND, r.opaque(), 0);
            }
            if (item.cas() != r.cas()) {
                return McResponse.status(McOpcode.SET, McStatus.KEY_EXISTS, EXISTS, r.opaque(), 0);
            }
        }
        long cas = ++lastCas;
        items.put(r.key(), new Item(r.value(), r.flags(), cas));
        return McResponse.status(McOpcode.SET, McStatus.OK, "", r.opaque(), cas);
    }

    private McResponse delete(McRequest r, Item item) {
        if (item == null) {
            return McResponse.status(McOpcode.DELETE, McStatus.KEY_NOT_FOUND, NOT_FOUND, r.opaque(), 0);
        }
        if (r.cas() != 0 && item.cas() != r.cas()) {
            return McResponse.status(McOpcode.DELETE, McStatus.KEY_EXISTS, EXISTS, r.opaque(), 0);
        }
        items.remove(r.key());
        return McResponse.status(McOpcode.DELETE, McStatus.OK, "", r.opaque(), 0);
    }

    /**
     * One UDP payload in, the response payload out (same request id), or empty for a datagram that
     * is not a request this backend understands: memcached answers those with an error or not at
     * all, and LaKe's tests must not depend on which.
     */
    public Optional<byte[]> handleDatagram(byte[] payload) {
        return handleDatagram(payload, (request, response) -> { });
    }

    /** As {@link #handleDatagram(byte[])}, telling {@code applied} each request handled and its response (trace events). */
    public Optional<byte[]> handleDatagram(byte[] payload, java.util.function.BiConsumer<McRequest, McResponse> applied) {
        McDatagram d;
        try {
            d = MemcachedUdpCodec.decode(payload);
        } catch (McException e) {
            return Optional.empty();
        }
        if (!(d.message() instanceof McRequest r)) {
            return Optional.empty();
        }
        McFrame reply = McFrame.single(d.frame().requestId());
        McResponse response = handle(r);
        applied.accept(r, response);
        return Optional.of(MemcachedUdpCodec.encode(new McDatagram(reply, response)));
    }
}
