package dev.innet.distcache.wire;

import dev.innet.wire.InnetMessage;
import java.nio.ByteBuffer;

/**
 * The 12-byte DistCache extension of the innet header (extlen 12), byte for byte
 * {@code distcache_ext_h} in p4/include/distcache_headers.p4.
 *
 * @param layer     GET: 0 = not routed yet, else the layer the client ToR chose; coherence messages: the
 *                  copy's layer; a switch's GET_REPLY: the layer that answered
 * @param node      the copy's cache node (0: not resolved yet, or a read that missed)
 * @param upperNode replies: the upper-layer switch whose load is {@code upperLoad} (0: none)
 * @param lowerNode replies: the lower-layer switch whose load is {@code lowerLoad} (0: none)
 * @param upperLoad 16-bit load stamp
 * @param lowerLoad 16-bit load stamp
 * @param token     UPD: 0 = phase 2, else the insertion it fills; FETCH: the insertion's token
 */
public record DcExt(int layer, int node, int upperNode, int lowerNode, int upperLoad, int lowerLoad, long token) {
    public static final int BYTES = 12;
    public static final DcExt NONE = new DcExt(0, 0, 0, 0, 0, 0, 0);

    public DcExt {
        check("layer", layer, 0xff);
        check("node", node, 0xff);
        check("upperNode", upperNode, 0xff);
        check("lowerNode", lowerNode, 0xff);
        check("upperLoad", upperLoad, 0xffff);
        check("lowerLoad", lowerLoad, 0xffff);
        if (token < 0 || token > 0xffff_ffffL) {
            throw new IllegalArgumentException("token " + token + " does not fit 32 bits");
        }
    }

    private static void check(String name, int v, int max) {
        if (v < 0 || v > max) {
            throw new IllegalArgumentException(name + " " + v + " is outside 0.." + max);
        }
    }

    /** A coherence message's extension: layer, node (0: the first switch resolves it) and token. */
    public static DcExt target(int layer, int node, long token) {
        return new DcExt(layer, node, 0, 0, 0, 0, token);
    }

    public byte[] encode() {
        return ByteBuffer.allocate(BYTES).put((byte) layer).put((byte) node).put((byte) upperNode)
                .put((byte) lowerNode).putShort((short) upperLoad).putShort((short) lowerLoad).putInt((int) token)
                .array();
    }

    /** The extension of {@code msg}, or null if it has none of DistCache's length (not a DistCache message). */
    public static DcExt of(InnetMessage msg) {
        byte[] e = msg.ext();
        if (e.length != BYTES) {
            return null;
        }
        ByteBuffer b = ByteBuffer.wrap(e);
        return new DcExt(b.get() & 0xff, b.get() & 0xff, b.get() & 0xff, b.get() & 0xff, b.getShort() & 0xffff,
                b.getShort() & 0xffff, b.getInt() & 0xffff_ffffL);
    }

    /** A DistCache message: the innet header with this extension. */
    public static InnetMessage message(int op, int flags, int status, long reqId, byte[] key, long seq, DcExt ext,
            byte[] value) {
        return new InnetMessage(op, flags, status, reqId, key, seq, ext.encode(), value);
    }
}
