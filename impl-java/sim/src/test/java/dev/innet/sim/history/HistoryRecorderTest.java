package dev.innet.sim.history;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class HistoryRecorderTest {
    private long now;
    private final HistoryRecorder history = new HistoryRecorder(() -> now);
    private static final byte[] KEY = "k1".getBytes();

    private static byte[] key16() {
        return java.util.Arrays.copyOf(KEY, 16);
    }

    @Test
    void writesOneLinePerOperationInTheDocumentedFormat() {
        now = 10;
        long put = history.invoke(1, OpKind.PUT, key16(), new byte[] {(byte) 0xab, 0x01});
        now = 25;
        history.complete(put, OpResult.OK, null);
        long get = history.invoke(2, OpKind.GET, key16(), null);
        now = 40;
        history.complete(get, OpResult.OK, new byte[] {(byte) 0xab, 0x01});
        long miss = history.invoke(3, OpKind.GET, key16(), null);
        history.complete(miss, OpResult.NOT_FOUND, null);
        long del = history.invoke(1, OpKind.DELETE, key16(), null);
        now = 50;
        history.complete(del, OpResult.UNKNOWN, null);
        history.invoke(2, OpKind.PUT, key16(), new byte[0]); // never completes: a crashed client

        String key = "6b310000000000000000000000000000";
        assertEquals(String.join("\n",
                "{\"client\":1,\"op\":\"put\",\"key\":\"" + key + "\",\"value\":\"ab01\",\"call\":10,\"return\":25,\"result\":\"ok\",\"id\":1}",
                "{\"client\":2,\"op\":\"get\",\"key\":\"" + key + "\",\"value\":\"ab01\",\"call\":25,\"return\":40,\"result\":\"ok\",\"id\":2}",
                "{\"client\":3,\"op\":\"get\",\"key\":\"" + key + "\",\"call\":40,\"return\":40,\"result\":\"not_found\",\"id\":3}",
                "{\"client\":1,\"op\":\"delete\",\"key\":\"" + key + "\",\"call\":40,\"return\":null,\"result\":\"unknown\",\"id\":4}",
                "{\"client\":2,\"op\":\"put\",\"key\":\"" + key + "\",\"value\":\"\",\"call\":50,\"return\":null,\"result\":\"unknown\",\"id\":5}",
                ""), history.toJsonLines());
    }

    @Test
    void enforcesTheFormatsPerClientRulesWhenTheyAreBroken() {
        long a = history.invoke(1, OpKind.GET, key16(), null);
        IllegalStateException overlap = assertThrows(IllegalStateException.class,
                () -> history.invoke(1, OpKind.GET, key16(), null));
        assertTrue(overlap.getMessage().contains("at most one outstanding operation"));
        history.complete(a, OpResult.UNKNOWN, null);
        IllegalStateException retired = assertThrows(IllegalStateException.class,
                () -> history.invoke(1, OpKind.GET, key16(), null));
        assertTrue(retired.getMessage().contains("new client id"));
        assertThrows(IllegalStateException.class, () -> history.complete(a, OpResult.OK, new byte[0]));
    }

    @Test
    void rejectsOperationsTheFormatCannotExpress() {
        assertThrows(IllegalArgumentException.class, () -> history.invoke(1, OpKind.GET, new byte[15], null));
        assertThrows(IllegalArgumentException.class, () -> history.invoke(1, OpKind.PUT, key16(), null));
        assertThrows(IllegalArgumentException.class, () -> history.invoke(1, OpKind.GET, key16(), new byte[1]));
        long put = history.invoke(1, OpKind.PUT, key16(), new byte[1]);
        assertThrows(IllegalArgumentException.class, () -> history.complete(put, OpResult.NOT_FOUND, null));
        assertThrows(IllegalArgumentException.class, () -> history.complete(put, OpResult.OK, new byte[1]));
        long get = history.invoke(2, OpKind.GET, key16(), null);
        assertThrows(IllegalArgumentException.class, () -> history.complete(get, OpResult.OK, null));
    }

    /** The file operations of docs/history-format.md §3.2: create, write and stat, and the result exists. */
    @Test
    void writesFileOperationsAndRejectsResultsTheyCannotHave() {
        long create = history.invoke(1, OpKind.CREATE, key16(), new byte[] {0});
        now = 5;
        history.complete(create, OpResult.EXISTS, null);
        long write = history.invoke(1, OpKind.WRITE, key16(), new byte[] {1});
        history.complete(write, OpResult.NOT_FOUND, null);
        long stat = history.invoke(1, OpKind.STAT, key16(), null);
        history.complete(stat, OpResult.OK, new byte[] {2});
        String key = "6b310000000000000000000000000000";
        assertEquals(String.join("\n",
                "{\"client\":1,\"op\":\"create\",\"key\":\"" + key + "\",\"value\":\"00\",\"call\":0,\"return\":5,\"result\":\"exists\",\"id\":1}",
                "{\"client\":1,\"op\":\"write\",\"key\":\"" + key + "\",\"value\":\"01\",\"call\":5,\"return\":5,\"result\":\"not_found\",\"id\":2}",
                "{\"client\":1,\"op\":\"stat\",\"key\":\"" + key + "\",\"value\":\"02\",\"call\":5,\"return\":5,\"result\":\"ok\",\"id\":3}",
                ""), history.toJsonLines());
        assertThrows(IllegalArgumentException.class, () -> history.invoke(2, OpKind.CREATE, key16(), null));
        assertThrows(IllegalArgumentException.class, () -> history.invoke(2, OpKind.STAT, key16(), new byte[1]));
        long c = history.invoke(2, OpKind.CREATE, key16(), new byte[1]);
        assertThrows(IllegalArgumentException.class, () -> history.complete(c, OpResult.NOT_FOUND, null));
        long w = history.invoke(3, OpKind.WRITE, key16(), new byte[1]);
        assertThrows(IllegalArgumentException.class, () -> history.complete(w, OpResult.EXISTS, null));
        long s = history.invoke(4, OpKind.STAT, key16(), null);
        assertThrows(IllegalArgumentException.class, () -> history.complete(s, OpResult.OK, null));
    }

    @Test
    void aTimedOutClientKeepsItsIdAndItsOperationGetsAReturnTime() {
        now = 5;
        long put = history.invoke(7, OpKind.PUT, key16(), new byte[] {1});
        now = 9;
        history.timedOut(put);
        long get = history.invoke(7, OpKind.GET, key16(), null);
        history.complete(get, OpResult.NOT_FOUND, null);
        assertTrue(history.toJsonLines().startsWith(
                "{\"client\":7,\"op\":\"put\",\"key\":\"6b310000000000000000000000000000\",\"value\":\"01\",\"call\":5,"
                        + "\"return\":9,\"result\":\"unknown\",\"id\":1}\n"), history.toJsonLines());
    }

    @Test
    void escapesJsonStrings() {
        StringBuilder sb = new StringBuilder();
        HistoryRecorder.appendString(sb, "a\"b\\c\nd\u0001é");
        assertEquals("\"a\\\"b\\\\c\\nd\\u0001é\"", sb.toString());
    }
}
