package dev.innet.protocol;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class KvCommandLineTest {
    private static final byte[] KEY = new byte[16];

    static {
        Arrays.fill(KEY, (byte) 0xab);
    }

    @Test
    void aPutAndItsReplyRoundTrip() {
        byte[] value = new byte[1090];
        Arrays.fill(value, (byte) 7);
        KvCommandLine.Request r = KvCommandLine.parseRequest(KvCommandLine.request(KvCommandLine.Op.PUT, KEY, value));
        assertEquals(KvCommandLine.Op.PUT, r.op());
        assertArrayEquals(KEY, r.key());
        assertArrayEquals(value, r.value());

        KvResult back = KvCommandLine.parseReply(KvCommandLine.reply(new KvResult(KvResult.Outcome.OK, value, 9, true, 0, 2)));
        assertEquals(KvResult.Outcome.OK, back.outcome());
        assertArrayEquals(value, back.value());
        assertTrue(back.fromSwitch());
    }

    @Test
    void getsAndEmptyValuesHaveNoValueWord() {
        String line = KvCommandLine.request(KvCommandLine.Op.GET, KEY, null);
        assertEquals("kv get " + "ab".repeat(16), line);
        KvResult r = KvCommandLine.parseReply(KvCommandLine.reply(new KvResult(KvResult.Outcome.NOT_FOUND, new byte[0], 0, false, 1, 1)));
        assertEquals(KvResult.Outcome.NOT_FOUND, r.outcome());
        assertEquals(0, r.value().length);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "kv", "kv get", "kv scan abab", "kv get zz", "kv get abab", "kv put " + "00000000000000000000000000000000",
            "kv delete 00000000000000000000000000000000 extra", "get 00000000000000000000000000000000"})
    void malformedRequestsAreRefusedWithAReason(String line) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> KvCommandLine.parseRequest(line));
        assertTrue(!e.getMessage().isBlank());
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "kv OK 0", "kv MAYBE 0 -", "kv OK 2 -", "ok OK 0 -", "kv OK 0 xyz", "error: no rack"})
    void malformedRepliesAreRefused(String line) {
        assertThrows(IllegalArgumentException.class, () -> KvCommandLine.parseReply(line));
    }
}
