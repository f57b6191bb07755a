package dev.innet.visibility.wire;

import dev.innet.wire.InnetMessage;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * A slot's last timestamp as a data node reports it for the switch's MaxTs reload (§III-E 3): index
 * (u16), zero (u16), timestamp (u32). Packed in TIMESTAMP_ENTRIES values, at most {@link #PER_MESSAGE}.
 */
public record SlotTimestamp(int index, long ts) {
    public static final int BYTES = 8;
    public static final int PER_MESSAGE = InnetMessage.MAX_VALUE_BYTES / BYTES;

    public static byte[] pack(List<SlotTimestamp> list) {
        ByteBuffer b = ByteBuffer.allocate(list.size() * BYTES);
        for (SlotTimestamp s : list) {
            b.putShort((short) s.index).putShort((short) 0).putInt((int) s.ts);
        }
        return b.array();
    }

    /** The entries, or null when the bytes are not a whole number of them. */
    public static List<SlotTimestamp> unpackOrNull(byte[] value) {
        if (value.length % BYTES != 0) {
            return null;
        }
        List<SlotTimestamp> out = new ArrayList<>();
        ByteBuffer b = ByteBuffer.wrap(value);
        while (b.hasRemaining()) {
            int index = b.getShort() & 0xffff;
            if (b.getShort() != 0) {
                return null;
            }
            out.add(new SlotTimestamp(index, b.getInt() & 0xffff_ffffL));
        }
        return out;
    }
}
