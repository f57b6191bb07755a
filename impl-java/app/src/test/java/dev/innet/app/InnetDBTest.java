package dev.innet.app;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.innet.rack.ycsb.InnetDB;
import dev.innet.rack.ycsb.RackService;
import dev.innet.sim.history.HistoryRecorder;
import dev.innet.sim.live.CommandSocket;
import dev.innet.wire.InnetMessage;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import site.ycsb.ByteArrayByteIterator;
import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.DBException;
import site.ycsb.Status;

/** The YCSB binding's own promises, driven in this JVM (YCSB's client would exit it) against a rack service. */
class InnetDBTest {
    @TempDir
    Path dir;

    @BeforeEach
    @AfterEach
    void freshThreadNumbers() {
        InnetDB.resetThreads();
    }

    private DB binding() throws DBException {
        Properties p = new Properties();
        p.setProperty("innet.rack", dir.toString());
        p.setProperty("innet.timeout.ms", "60000");
        InnetDB db = new InnetDB();
        db.setProperties(p);
        db.init();
        return db;
    }

    /** YCSB's default record: field0..field9 of 100 bytes each, every byte telling which field it is in. */
    private static Map<String, ByteIterator> record(int fields, int length, int salt) {
        Map<String, ByteIterator> r = new HashMap<>();
        for (int f = 0; f < fields; f++) {
            byte[] v = new byte[length];
            for (int i = 0; i < length; i++) {
                v[i] = (byte) ('a' + (f * 7 + i + salt) % 26);
            }
            r.put("field" + f, new ByteArrayByteIterator(v));
        }
        return r;
    }

    private static Map<String, byte[]> bytesOf(Map<String, ByteIterator> r) {
        Map<String, byte[]> m = new HashMap<>();
        r.forEach((k, v) -> m.put(k, v.toArray()));
        return m;
    }

    private static void assertSameRecord(Map<String, byte[]> expected, Map<String, ByteIterator> actual) {
        assertEquals(expected.keySet(), actual.keySet());
        expected.forEach((k, v) -> assertArrayEquals(v, actual.get(k).toArray(), k));
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"farreach", "netcache", "nocache"})
    void aThousandByteRecordRoundTrips(String protocol) throws Exception {
        try (RackService service = YcsbClientTest.serve(protocol, 1, 4, dir)) {
            DB db = binding();
            Map<String, byte[]> written = bytesOf(record(10, 100, 0));
            assertEquals(Status.OK, db.insert("usertable", "user1", record(10, 100, 0)));
            Map<String, ByteIterator> read = new HashMap<>();
            assertEquals(Status.OK, db.read("usertable", "user1", null, read));
            assertSameRecord(written, read);
        }
    }

    @Test
    void malformedRequestsGetAReasonAndTheRackGoesOn() throws Exception {
        try (RackService service = YcsbClientTest.serve("farreach", 1, 0, dir)) {
            Path client = RackService.socketOf(dir, service.rack().clients().get(0));
            Path control = dir.resolve("sock").resolve(RackService.CONTROL_SOCKET);
            for (String bad : List.of("kv get nothex", "kv put " + "00".repeat(16), "kv scan " + "00".repeat(16), "bogus", "kv")) {
                String reply = CommandSocket.ask(client, bad, 10_000);
                assertTrue(reply.startsWith("error: ") && reply.length() > 10, bad + " -> " + reply);
            }
            assertTrue(CommandSocket.ask(control, "check", 10_000).startsWith("error: usage"));
            assertTrue(CommandSocket.ask(control, "nonsense", 10_000).startsWith("error: unknown request"));
            DB db = binding();
            assertEquals(Status.OK, db.insert("usertable", "after", record(1, 8, 0)));
            assertEquals(Status.OK, db.read("usertable", "after", null, new HashMap<>()));
            assertTrue(CommandSocket.ask(control, "stats", 10_000).contains("operations=2"), "only the good operations ran");
        }
    }

    @Test
    void theLargestValueTheWireCarriesRoundTripsAndOneByteMoreIsRefused() throws Exception {
        try (RackService service = YcsbClientTest.serve("farreach", 1, 0, dir)) {
            DB db = binding();
            // one field "f": 1 (name length) + 1 (name) + 2 (length) + value bytes = the wire's largest value
            byte[] largest = new byte[InnetMessage.MAX_VALUE_BYTES - 4];
            java.util.Arrays.fill(largest, (byte) 'z');
            assertEquals(Status.OK, db.insert("usertable", "max", Map.of("f", new ByteArrayByteIterator(largest))));
            Map<String, ByteIterator> read = new HashMap<>();
            assertEquals(Status.OK, db.read("usertable", "max", null, read));
            assertArrayEquals(largest, read.get("f").toArray());
            byte[] tooLarge = new byte[largest.length + 1];
            assertEquals("BAD_REQUEST", db.insert("usertable", "max", Map.of("f", new ByteArrayByteIterator(tooLarge))).getName());
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"farreach", "netcache"})
    void aCachedRecordGrownPastTheSwitchLimitIsServedWholeNotTruncated(String protocol) throws Exception {
        try (RackService service = YcsbClientTest.serve(protocol, 1, 2, dir)) {
            DB db = binding();
            assertEquals(Status.OK, db.insert("usertable", "hot", record(1, 50, 0)));
            // reads make it hot; the controller admits it to the switch's cache
            long admissions = 0;
            for (int i = 0; i < 400 && admissions == 0; i++) {
                assertEquals(Status.OK, db.read("usertable", "hot", null, new HashMap<>()));
                admissions = service.shared().inspect(() -> service.rack().controllerCounters().getOrDefault("admissions", 0L));
            }
            assertTrue(admissions > 0, "the record was never admitted to the cache");
            Map<String, byte[]> big = bytesOf(record(10, 100, 3));
            assertEquals(Status.OK, db.insert("usertable", "hot", record(10, 100, 3)));
            assertTrue(big.values().stream().mapToInt(v -> v.length).sum() > InnetMessage.MAX_CACHED_VALUE_BYTES);
            for (int i = 0; i < 20; i++) {
                Map<String, ByteIterator> read = new HashMap<>();
                assertEquals(Status.OK, db.read("usertable", "hot", null, read));
                assertSameRecord(big, read);
            }
        }
    }

    @Test
    void anUpdateMergesItsFieldsIntoTheRecord() throws Exception {
        try (RackService service = YcsbClientTest.serve("farreach", 1, 0, dir)) {
            DB db = binding();
            Map<String, byte[]> expected = bytesOf(record(3, 10, 0));
            assertEquals(Status.OK, db.insert("usertable", "u", record(3, 10, 0)));
            Map<String, ByteIterator> one = Map.of("field1", new ByteArrayByteIterator("new".getBytes()));
            assertEquals(Status.OK, db.update("usertable", "u", one));
            expected.put("field1", "new".getBytes());
            Map<String, ByteIterator> read = new HashMap<>();
            assertEquals(Status.OK, db.read("usertable", "u", null, read));
            assertSameRecord(expected, read);
        }
    }

    @Test
    void twoThreadsOperationsOverlapInTheRack() throws Exception {
        try (RackService service = YcsbClientTest.serve("farreach", 2, 4, dir)) {
            DB first = binding();
            DB second = binding();
            CountDownLatch start = new CountDownLatch(1);
            AtomicInteger notOk = new AtomicInteger();
            List<Thread> threads = new ArrayList<>();
            for (DB db : List.of(first, second)) {
                threads.add(Thread.ofPlatform().start(() -> {
                    try {
                        start.await();
                        for (int i = 0; i < 150; i++) {
                            String key = "user" + (i % 5);
                            Status s = i % 2 == 0 ? db.insert("usertable", key, record(1, 20, i))
                                    : db.read("usertable", key, null, new HashMap<>());
                            if (!s.isOk() && s != Status.NOT_FOUND) {
                                notOk.incrementAndGet();
                            }
                        }
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }));
            }
            start.countDown();
            for (Thread t : threads) {
                t.join();
            }
            assertEquals(0, notOk.get());
            List<HistoryRecorder.Operation> ops = service.shared().inspect(() -> List.copyOf(service.rack().history().operations()));
            assertEquals(300, ops.size());
            assertTrue(overlapping(ops) > 0, "no two clients' operations overlapped in simulated time");
        }
    }

    /** Pairs of operations of different clients whose [call, return] intervals overlap. */
    static long overlapping(List<HistoryRecorder.Operation> ops) {
        long n = 0;
        for (HistoryRecorder.Operation a : ops) {
            for (HistoryRecorder.Operation b : ops) {
                if (a.client() < b.client() && a.callNanos() < b.returnNanos() && b.callNanos() < a.returnNanos()) {
                    n++;
                }
            }
        }
        return n;
    }

    @Test
    void aRecordTooLargeForTheWireIsABadRequestNotAnError() throws Exception {
        try (RackService service = YcsbClientTest.serve("farreach", 1, 0, dir)) {
            DB db = binding();
            Status s = db.insert("usertable", "huge", record(12, 120, 0));
            assertEquals("BAD_REQUEST", s.getName(), s.getDescription());
            assertEquals(Status.NOT_FOUND, db.read("usertable", "huge", null, new HashMap<>()));
        }
    }
}
