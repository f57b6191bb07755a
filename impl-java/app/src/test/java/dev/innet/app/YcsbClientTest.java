package dev.innet.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.innet.protocol.ProtocolRegistry;
import dev.innet.rack.Rack;
import dev.innet.rack.check.RunVerdict;
import dev.innet.rack.ycsb.RackService;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * YCSB's own client, {@code site.ycsb.Client}, as a user runs it (a process of its own per phase, as
 * {@code ./innet ycsb load|run} starts it), against a simulated rack kept by a {@link RackService}: one
 * load, then workloads A, B, C, F, D and E in YCSB's recommended order, all on the same rack, with
 * YCSB's default 1,000-byte records. What YCSB reports for each operation kind is checked, and at the
 * end the rack's whole history (every phase) must be linearizable with no lost write.
 */
class YcsbClientTest {
    static final Path ROOT = Path.of(System.getProperty("innet.root")).toAbsolutePath().normalize();
    private static final Pattern RETURN_LINE = Pattern.compile("^\\[([A-Z-]+)\\], Return=([A-Z_]+), (\\d+)$", Pattern.MULTILINE);
    private static final Pattern OPERATIONS_LINE = Pattern.compile("^\\[([A-Z-]+)\\], Operations, (\\d+)$", Pattern.MULTILINE);

    /** A simulated rack served from this JVM, as {@code ./innet ycsb serve} serves one. */
    static RackService serve(String protocol, int clients, int hotThreshold, Path dir) throws IOException {
        Rack rack = Rack.builder(ROOT, 1).protocol(ProtocolRegistry.byName(protocol)).servers(2).clients(clients)
                .cacheCapacity(32).hotThreshold(hotThreshold).driverClients().maxEvents(Long.MAX_VALUE / 4)
                .out(new PrintStream(OutputStream.nullOutputStream())).build();
        rack.advance(1_000_000);
        return RackService.start(rack, protocol, ROOT, dir);
    }

    /** What one run of YCSB's client printed: per operation kind, the count of each status. */
    record YcsbRun(int exit, String output, Map<String, Map<String, Long>> returns, Map<String, Long> operations) {
        /** Every operation of {@code op} ended with {@code status}, and there was at least one. */
        void allEndedWith(String op, String status) {
            // YCSB counts the operations that failed under "OP-FAILED"
            long n = operations.getOrDefault(op, 0L) + operations.getOrDefault(op + "-FAILED", 0L);
            assertTrue(n > 0, "no " + op + " operations:\n" + output);
            assertEquals(Map.of(status, n), returns.get(op), op + " outcomes:\n" + output);
        }
    }

    /** Runs {@code site.ycsb.Client} in a JVM of its own with the innet binding against {@code dir}. */
    static YcsbRun ycsb(Path dir, String phase, Path workload, String... extra) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), "site.ycsb.Client", phase,
                "-db", "dev.innet.rack.ycsb.InnetDB", "-P", workload.toString(), "-p", "innet.rack=" + dir));
        cmd.addAll(List.of(extra));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        byte[] out = p.getInputStream().readAllBytes();
        assertTrue(p.waitFor(300, TimeUnit.SECONDS), "YCSB did not finish");
        String text = new String(out, StandardCharsets.UTF_8);
        Map<String, Map<String, Long>> returns = new TreeMap<>();
        Matcher m = RETURN_LINE.matcher(text);
        while (m.find()) {
            returns.computeIfAbsent(m.group(1), k -> new TreeMap<>()).put(m.group(2), Long.parseLong(m.group(3)));
        }
        Map<String, Long> operations = new TreeMap<>();
        Matcher o = OPERATIONS_LINE.matcher(text);
        while (o.find()) {
            operations.put(o.group(1), Long.parseLong(o.group(2)));
        }
        return new YcsbRun(p.exitValue(), text, returns, operations);
    }

    static Path workload(String letter) {
        return ROOT.resolve("impl-java/app/src/test/resources/ycsb/workload" + letter);
    }

    @TestFactory
    Stream<DynamicTest> loadOnceThenWorkloadsAToFOnOneRack(@TempDir Path dir) throws Exception {
        RackService service = serve("farreach", 2, 4, dir);
        String[] counts = {"-p", "recordcount=150", "-p", "operationcount=200", "-threads", "2"};
        List<DynamicTest> steps = new ArrayList<>();
        steps.add(DynamicTest.dynamicTest("load (YCSB's default record: 10 fields of 100 bytes)", () -> {
            YcsbRun r = ycsb(dir, "-load", workload("a"), counts);
            assertEquals(0, r.exit(), r.output());
            r.allEndedWith("INSERT", "OK");
            assertEquals(150L, r.operations().get("INSERT"));
        }));
        for (String w : List.of("a", "b", "c", "f", "d", "e")) {
            steps.add(DynamicTest.dynamicTest("workload " + w, () -> {
                YcsbRun r = ycsb(dir, "-t", workload(w), counts);
                assertEquals(0, r.exit(), r.output());
                switch (w) {
                    case "a", "b" -> {
                        r.allEndedWith("READ", "OK"); // a fresh rack per phase would answer NOT_FOUND
                        r.allEndedWith("UPDATE", "OK");
                    }
                    case "c" -> {
                        r.allEndedWith("READ", "OK");
                        assertEquals(Map.of("READ", 200L), withoutCleanup(r.operations()), r.output());
                    }
                    case "f" -> {
                        // YCSB reports a read-modify-write's read and write as READ and UPDATE
                        assertTrue(r.operations().getOrDefault("READ-MODIFY-WRITE", 0L) > 0, r.output());
                        r.allEndedWith("READ", "OK");
                        r.allEndedWith("UPDATE", "OK");
                    }
                    case "d" -> {
                        r.allEndedWith("READ", "OK");
                        r.allEndedWith("INSERT", "OK");
                    }
                    case "e" -> {
                        // range scans are not a key-value cache's operation: refused, not faked
                        long scans = r.operations().getOrDefault("SCAN-FAILED", 0L);
                        assertTrue(scans > 0, r.output());
                        assertEquals(Map.of("NOT_IMPLEMENTED", scans), r.returns().get("SCAN"), r.output());
                        r.allEndedWith("INSERT", "OK");
                    }
                    default -> throw new IllegalStateException(w);
                }
            }));
        }
        steps.add(DynamicTest.dynamicTest("the whole history is linearizable, no write lost", () -> {
            try (service) {
                RunVerdict v = service.shared().inspect(() -> RunVerdict.of(ROOT, service.rack(), dir.resolve("check"), "ycsb"));
                assertTrue(v.operations() > 1000, v.describe());
                assertTrue(v.safe(), v.describe());
            }
        }));
        return steps.stream();
    }

    /** YCSB also reports its per-thread CLEANUP as an operation; it says nothing about the workload. */
    private static Map<String, Long> withoutCleanup(Map<String, Long> ops) {
        Map<String, Long> m = new TreeMap<>(ops);
        m.remove("CLEANUP");
        return m;
    }

    @Test
    void thePapersSettingIsCachedByTheSwitch(@TempDir Path dir) throws Exception {
        // fieldcount=1, fieldlength=119: 128-byte records, the papers' values, which a switch caches
        try (RackService service = serve("farreach", 1, 4, dir)) {
            String[] paper = {"-p", "recordcount=100", "-p", "operationcount=600", "-p", "fieldcount=1", "-p", "fieldlength=119"};
            assertEquals(0, ycsb(dir, "-load", workload("a"), paper).exit());
            YcsbRun r = ycsb(dir, "-t", workload("a"), paper);
            assertEquals(0, r.exit(), r.output());
            r.allEndedWith("READ", "OK");
            long admissions = service.shared().inspect(() -> service.rack().controllerCounters().get("admissions"));
            assertTrue(admissions > 0, "no record was admitted to the switch's cache");
        }
    }

    @Test
    void ycsbRefusesMoreThreadsThanClientHosts(@TempDir Path dir) throws Exception {
        try (RackService service = serve("farreach", 1, 0, dir)) {
            YcsbRun r = ycsb(dir, "-load", workload("a"), "-p", "recordcount=10", "-threads", "2");
            assertTrue(r.output().contains("has no client host"), r.output());
        }
    }
}
