package dev.innet.farreach;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.innet.kv.KvOp;
import dev.innet.kv.KvStatus;
import dev.innet.wire.InnetMessage;
import org.junit.jupiter.api.Test;

/**
 * Every value length 0..128 through farreach.p4's value registers (16 words of 8 bytes, FR-2/5/6/11):
 * a value absorbed by a write and read back from the switch, a value refilled by a GET_FOR_CACHE reply and
 * read back, and the value a read embeds during eviction. A partial last word, a word too many or too few
 * (the word count is ceil(length / 8)), or a length field that disagrees with the words shows here as a
 * wrong byte or a wrong length.
 */
class ValueLengthsThroughTheCacheTest {
    private static final byte[] KEY = InnetMessage.key("lengths");
    private static final int INDEX = 11;

    /** A value of {@code length} bytes, distinct per length and per {@code tag}, no zero bytes (padding is zero). */
    private static byte[] value(int length, int tag) {
        byte[] v = new byte[length];
        for (int i = 0; i < length; i++) {
            v[i] = (byte) (1 + (i * 31 + length * 7 + tag * 13) % 255);
        }
        return v;
    }

    @Test
    void writesAbsorbedByTheCacheAreReadBackWithEveryLength() throws Exception {
        FarReachSwitchUnderTest sw = new FarReachSwitchUnderTest();
        sw.admit(KEY, INDEX, new byte[0], 0, true);
        long req = 1;
        for (int length = 0; length <= InnetMessage.MAX_CACHED_VALUE_BYTES; length++) {
            byte[] v = value(length, 1);
            var put = sw.fromClient(KvOp.PUT, req++, KEY, v);
            assertEquals(KvOp.PUT_REPLY, put.message().op(), "length " + length);
            assertEquals(FarReachSwitchUnderTest.portOf(FarReachSwitchUnderTest.CLIENT), put.port());
            var get = sw.fromClient(KvOp.GET, req++, KEY, new byte[0]);
            assertEquals(KvOp.GET_REPLY, get.message().op(), "length " + length);
            assertEquals(KvStatus.OK, get.message().status());
            assertArrayEquals(v, get.message().value(), "length " + length);
        }
    }

    @Test
    void serverRepliesRefillTheCacheWithEveryLength() throws Exception {
        FarReachSwitchUnderTest sw = new FarReachSwitchUnderTest();
        sw.admit(KEY, INDEX, value(5, 9), 0, false);
        long req = 1;
        for (int length = 0; length <= InnetMessage.MAX_CACHED_VALUE_BYTES; length++) {
            byte[] v = value(length, 2);
            // outdated: the read goes to the server; its reply (seq 0 = the key's counter) makes it latest
            sw.admit(KEY, INDEX, value(5, 9), 0, false);
            var forwarded = sw.fromClient(KvOp.GET, req, KEY, new byte[0]);
            assertEquals(KvOp.GET_FOR_CACHE, forwarded.message().op(), "length " + length);
            var reply = sw.fromServer(new InnetMessage(KvOp.GET_FOR_CACHE_REPLY, 0, KvStatus.OK, req++, KEY, 0, new byte[0], v));
            assertArrayEquals(v, reply.message().value(), "length " + length);
            var get = sw.fromClient(KvOp.GET, req++, KEY, new byte[0]);
            assertEquals(KvOp.GET_REPLY, get.message().op());
            assertEquals(KvOp.FLAG_FROM_SWITCH, get.message().flags() & KvOp.FLAG_FROM_SWITCH, "length " + length);
            assertArrayEquals(v, get.message().value(), "length " + length);
        }
    }

    @Test
    void readsEmbedTheEvictedValueWithEveryLength() throws Exception {
        FarReachSwitchUnderTest sw = new FarReachSwitchUnderTest();
        long req = 1;
        for (int length = 0; length <= InnetMessage.MAX_CACHED_VALUE_BYTES; length++) {
            byte[] v = value(length, 3);
            sw.setEvicting(INDEX, false);
            sw.admit(KEY, INDEX, new byte[0], 0, true);
            sw.fromClient(KvOp.PUT, req++, KEY, v); // absorbed: the record the eviction loads
            sw.setEvicting(INDEX, true);
            var write = sw.fromClient(KvOp.PUT, req++, KEY, value(3, 4)); // FR-8: forwarded, record outdated
            assertEquals(KvOp.PUT_SEQ, write.message().op());
            var read = sw.fromClient(KvOp.GET, req++, KEY, new byte[0]);
            assertEquals(KvOp.GET_EMBED, read.message().op(), "length " + length);
            assertEquals(FarReachSwitchUnderTest.portOf(FarReachSwitchUnderTest.SERVER), read.port());
            assertArrayEquals(v, read.message().value(), "length " + length);
            assertEquals(write.message().seq() - 1, read.message().seq(), "the absorbed write's seq");
        }
    }
}
