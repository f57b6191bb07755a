package dev.innet.lake.wire;

import java.nio.ByteBuffer;

/**
 * memcached's binary protocol over UDP (docs/lake.md, "Wire format"): the 8-byte frame header, then
 * the 24-byte binary header (magic, opcode, key length, extras length, data type, vbucket id or
 * status, total body length, opaque, CAS), then extras, key and value. Single-datagram messages of
 * GET, SET and DELETE only; anything else is rejected with the {@link McError} that names why,
 * checked in the enum's order.
 */
public final class MemcachedUdpCodec {
    public static final int HEADER_BYTES = 24;
    public static final int MAGIC_REQUEST = 0x80;
    public static final int MAGIC_RESPONSE = 0x81;

    private MemcachedUdpCodec() { }

    public static byte[] encode(McDatagram datagram) {
        McMessage m = datagram.message();
        ByteString key = m instanceof McRequest r ? r.key() : ByteString.EMPTY;
        ByteString value = m instanceof McRequest r ? r.value() : ((McResponse) m).value();
        int extras = m instanceof McRequest r ? r.extrasLength() : ((McResponse) m).extrasLength();
        int body = extras + key.length() + value.length();
        ByteBuffer b = ByteBuffer.allocate(McFrame.BYTES + HEADER_BYTES + body);
        McFrame f = datagram.frame();
        b.putShort((short) f.requestId()).putShort((short) f.sequence()).putShort((short) f.datagrams()).putShort((short) 0);
        b.put((byte) (m instanceof McRequest ? MAGIC_REQUEST : MAGIC_RESPONSE));
        b.put((byte) m.opcode().code());
        b.putShort((short) key.length());
        b.put((byte) extras);
        b.put((byte) 0);
        b.putShort((short) (m instanceof McResponse r ? r.status() : 0));
        b.putInt(body);
        b.putInt(m.opaque());
        b.putLong(m.cas());
        switch (m) {
            case McRequest r when r.opcode() == McOpcode.SET -> b.putInt(r.flags()).putInt(r.expiration());
            case McResponse r when extras == 4 -> b.putInt(r.flags());
            default -> { }
        }
        byte[] out = b.array();
        key.copyTo(out, b.position());
        value.copyTo(out, b.position() + key.length());
        return out;
    }

    public static McDatagram decode(byte[] payload) throws McException {
        ByteBuffer b = ByteBuffer.wrap(payload);
        if (b.remaining() < McFrame.BYTES) {
            throw new McException(McError.FRAME_TRUNCATED, payload.length + " bytes");
        }
        int requestId = u16(b);
        int sequence = u16(b);
        int datagrams = u16(b);
        int reserved = u16(b);
        if (reserved != 0) {
            throw new McException(McError.FRAME_RESERVED_NONZERO, "reserved " + reserved);
        }
        if (sequence != 0) {
            throw new McException(McError.CONTINUATION_DATAGRAM, "sequence " + sequence);
        }
        if (datagrams != 1) {
            throw new McException(McError.MULTI_DATAGRAM, datagrams + " datagrams");
        }
        McFrame frame = new McFrame(requestId, sequence, datagrams);
        if (b.remaining() < HEADER_BYTES) {
            throw new McException(McError.HEADER_TRUNCATED, b.remaining() + " bytes after the frame header");
        }
        Header h = Header.read(b);
        checkHeader(h);
        if (b.remaining() < h.bodyLength) {
            throw new McException(McError.BODY_TRUNCATED, "body " + h.bodyLength + ", " + b.remaining() + " bytes left");
        }
        if (b.remaining() > h.bodyLength) {
            throw new McException(McError.TRAILING_BYTES, (b.remaining() - h.bodyLength) + " bytes after the body");
        }
        return new McDatagram(frame, h.request ? request(h, b) : response(h, b));
    }

    /** The fixed header, before the body. */
    private record Header(boolean request, McOpcode opcode, int keyLength, int extrasLength,
                          int statusOrVbucket, long bodyLength, int opaque, long cas) {
        static Header read(ByteBuffer b) throws McException {
            int magic = u8(b);
            if (magic != MAGIC_REQUEST && magic != MAGIC_RESPONSE) {
                throw new McException(McError.BAD_MAGIC, String.format("magic 0x%02x", magic));
            }
            int code = u8(b);
            McOpcode op = McOpcode.ofCode(code);
            if (op == null) {
                throw new McException(McError.UNSUPPORTED_OPCODE, String.format("opcode 0x%02x", code));
            }
            int keyLength = u16(b);
            int extrasLength = u8(b);
            int dataType = u8(b);
            if (dataType != 0) {
                throw new McException(McError.BAD_DATA_TYPE, "data type " + dataType);
            }
            int statusOrVbucket = u16(b);
            long bodyLength = b.getInt() & 0xffff_ffffL;
            return new Header(magic == MAGIC_REQUEST, op, keyLength, extrasLength, statusOrVbucket, bodyLength,
                    b.getInt(), b.getLong());
        }
    }

    private static void checkHeader(Header h) throws McException {
        if (h.request && h.statusOrVbucket != 0) {
            throw new McException(McError.NONZERO_VBUCKET, "vbucket " + h.statusOrVbucket);
        }
        if (h.keyLength + h.extrasLength > h.bodyLength) {
            throw new McException(McError.BAD_LENGTHS, "key " + h.keyLength + " + extras " + h.extrasLength
                    + " > body " + h.bodyLength);
        }
    }

    private static McRequest request(Header h, ByteBuffer b) throws McException {
        int wantExtras = h.opcode == McOpcode.SET ? 8 : 0;
        if (h.extrasLength != wantExtras) {
            throw new McException(McError.BAD_EXTRAS, h.opcode + " request with " + h.extrasLength + " bytes of extras");
        }
        if (h.keyLength == 0 || h.keyLength > McRequest.MAX_KEY_BYTES) {
            throw new McException(McError.BAD_KEY, h.opcode + " request with a key of " + h.keyLength + " bytes");
        }
        int valueLength = (int) (h.bodyLength - h.keyLength - h.extrasLength);
        if (h.opcode != McOpcode.SET && valueLength != 0) {
            throw new McException(McError.UNEXPECTED_VALUE, h.opcode + " request with a value of " + valueLength + " bytes");
        }
        int flags = 0;
        int expiration = 0;
        if (h.opcode == McOpcode.SET) {
            flags = b.getInt();
            expiration = b.getInt();
        }
        ByteString key = bytes(b, h.keyLength);
        return new McRequest(h.opcode, key, bytes(b, valueLength), flags, expiration, h.opaque, h.cas);
    }

    private static McResponse response(Header h, ByteBuffer b) throws McException {
        boolean getHit = h.opcode == McOpcode.GET && h.statusOrVbucket == McStatus.OK;
        int wantExtras = getHit ? 4 : 0;
        if (h.extrasLength != wantExtras) {
            throw new McException(McError.BAD_EXTRAS, h.opcode + " response, status " + h.statusOrVbucket
                    + ", with " + h.extrasLength + " bytes of extras");
        }
        if (h.keyLength != 0) {
            throw new McException(McError.BAD_KEY, h.opcode + " response with a key of " + h.keyLength + " bytes");
        }
        int valueLength = (int) (h.bodyLength - h.extrasLength);
        if (!getHit && h.statusOrVbucket == McStatus.OK && valueLength != 0) {
            throw new McException(McError.UNEXPECTED_VALUE, "successful " + h.opcode + " response with "
                    + valueLength + " bytes of body");
        }
        int flags = getHit ? b.getInt() : 0;
        return new McResponse(h.opcode, h.statusOrVbucket, bytes(b, valueLength), flags, h.opaque, h.cas);
    }

    private static ByteString bytes(ByteBuffer b, int n) {
        byte[] out = new byte[n];
        b.get(out);
        return ByteString.of(out);
    }

    private static int u8(ByteBuffer b) {
        return b.get() & 0xff;
    }

    private static int u16(ByteBuffer b) {
        return b.getShort() & 0xffff;
    }
}
