package dev.innet.live;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.innet.protocol.ProtocolRegistry;
import dev.innet.rack.ycsb.InnetDB;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import site.ycsb.ByteArrayByteIterator;
import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.Status;

/**
 * YCSB against a live rack (real processes in network namespaces, p4sim on AF_PACKET): YCSB's own
 * client loads and runs workload A through the binding, a YCSB default record (1,000 bytes of fields,
 * a 1,090-byte value in a 1,164-byte frame) crosses the veth links and p4sim whole, and two binding
 * threads' operations overlap in wall-clock time (no lock serialises them). Skipped where the machine
 * forbids network namespaces.
 */
class LiveYcsbTest {
    private static Path root;

    @BeforeAll
    static void requireNamespaces() {
        NetworkNamespaces.assumeAllowed("innet");
        root = Path.of(System.getProperty("innet.root")).toAbsolutePath().normalize();
    }

    private static DB binding(Path state) throws Exception {
        Properties p = new Properties();
        p.setProperty("innet.rack", state.toString());
        InnetDB db = new InnetDB();
        db.setProperties(p);
        db.init();
        return db;
    }

    private static Map<String, ByteIterator> record(int salt) {
        Map<String, ByteIterator> r = new HashMap<>();
        for (int f = 0; f < 10; f++) {
            byte[] v = new byte[100];
            java.util.Arrays.fill(v, (byte) ('a' + (f + salt) % 26));
            r.put("field" + f, new ByteArrayByteIterator(v));
        }
        return r;
    }

    @Test
    void ycsbLoadsAndRunsAgainstALiveRackWithThreadsInParallel(@TempDir Path state) throws Exception {
        RackLayout layout = RackLayout.of("y" + (ProcessHandle.current().pid() % 100_000), state, 2, 2);
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(log, true, StandardCharsets.UTF_8);
        String classPath = RackUp.absoluteClassPath(System.getProperty("java.class.path"));
        try {
            new RackUp(new RackUp.Settings(root, layout, ProtocolRegistry.byName("farreach"), 7, 90_000,
                    ProcessHandle.current().info().command().orElseThrow(), classPath), out).up();

            // 1. a YCSB default record round-trips whole
            InnetDB.resetThreads();
            DB db = binding(state);
            assertEquals(Status.OK, db.insert("usertable", "big", record(0)));
            Map<String, ByteIterator> read = new HashMap<>();
            assertEquals(Status.OK, db.read("usertable", "big", null, read));
            record(0).forEach((k, v) -> assertArrayEquals(v.toArray(), read.get(k).toArray(), k));

            // 2. two threads, each on its own client host, overlap in time
            InnetDB.resetThreads();
            List<DB> dbs = List.of(binding(state), binding(state));
            List<long[]> spans = java.util.Collections.synchronizedList(new ArrayList<>());
            AtomicInteger failed = new AtomicInteger();
            CountDownLatch go = new CountDownLatch(1);
            List<Thread> threads = new ArrayList<>();
            for (int t = 0; t < 2; t++) {
                DB mine = dbs.get(t);
                int thread = t;
                threads.add(Thread.ofPlatform().start(() -> {
                    try {
                        go.await();
                        for (int i = 0; i < 60; i++) {
                            long start = System.nanoTime();
                            Status s = mine.insert("usertable", "user" + (i % 4), record(i));
                            spans.add(new long[] {thread, start, System.nanoTime()});
                            if (!s.isOk()) {
                                failed.incrementAndGet();
                            }
                        }
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }));
            }
            go.countDown();
            for (Thread t : threads) {
                t.join();
            }
            assertEquals(0, failed.get(), "failed writes; rack log:\n" + log);
            long overlaps = 0;
            for (long[] a : spans) {
                for (long[] b : spans) {
                    if (a[0] == 0 && b[0] == 1 && a[1] < b[2] && b[1] < a[2]) {
                        overlaps++;
                    }
                }
            }
            assertTrue(overlaps > 0, "no operation of one thread overlapped one of the other");

            // 3. YCSB's own client: load, then workload A, on the same live rack
            Path workload = state.resolve("workloada");
            Files.writeString(workload, String.join("\n", "workload=site.ycsb.workloads.CoreWorkload", "recordcount=100",
                    "operationcount=200", "readallfields=true", "readproportion=0.5", "updateproportion=0.5",
                    "scanproportion=0", "insertproportion=0", "requestdistribution=zipfian", ""));
            for (String phase : List.of("-load", "-t")) {
                Process p = new ProcessBuilder(ProcessHandle.current().info().command().orElseThrow(), "-cp", classPath,
                        "site.ycsb.Client", phase, "-db", InnetDB.class.getName(), "-P", workload.toString(),
                        "-p", "innet.rack=" + state, "-threads", "2").redirectErrorStream(true).start();
                String text = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                assertTrue(p.waitFor(180, TimeUnit.SECONDS));
                assertEquals(0, p.exitValue(), text);
                if (phase.equals("-load")) {
                    assertTrue(text.contains("[INSERT], Return=OK, 100"), text);
                } else {
                    // every read finds a record the load wrote; no error of any kind
                    assertTrue(text.contains("[READ], Return=OK,"), text);
                    assertTrue(!text.contains("Return=NOT_FOUND") && !text.contains("Return=ERROR")
                            && !text.contains("Return=SERVICE_UNAVAILABLE"), text);
                }
            }
        } finally {
            List<String> left = RackDown.down(layout.planFile(), out);
            assertEquals(List.of(), left, "rack down removed everything; its output:\n" + log);
        }
    }
}
