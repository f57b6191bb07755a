package dev.innet.p4runtime;

import com.google.protobuf.ByteString;
import java.math.BigInteger;

/**
 * P4Runtime's binary strings: unsigned big-endian values. Requests may pad them with leading zero bytes,
 * but the value must fit the field's width; responses use the canonical form (shortest, at least one byte).
 */
final class Bytes {
    private Bytes() { }

    static BigInteger decode(ByteString bytes, int width, String what) {
        if (bytes.isEmpty()) {
            throw P4RuntimeError.invalid(what + ": empty byte string");
        }
        BigInteger v = new BigInteger(1, bytes.toByteArray());
        if (v.bitLength() > width) {
            throw P4RuntimeError.invalid(what + ": value 0x" + v.toString(16) + " does not fit in " + width + " bits");
        }
        return v;
    }

    static ByteString encode(BigInteger v) {
        byte[] b = v.toByteArray();
        int start = 0;
        while (start < b.length - 1 && b[start] == 0) {
            start++;
        }
        return ByteString.copyFrom(b, start, b.length - start);
    }

    static ByteString encode(long v) {
        return encode(BigInteger.valueOf(v));
    }
}
