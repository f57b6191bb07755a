package dev.innet.p4sim;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.innet.p4sim.stf.StfRunner;
import dev.innet.p4sim.v1model.P4Switch;
import dev.innet.p4sim.v1model.PacketSink;
import dev.innet.p4sim.v1model.SwitchConfig;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * No per-packet allocation (issue 14, "keep what is good"): every STF program of the language tests and
 * of the repository, on both code generators, processes its script's packets through the allocation-free
 * entry point ({@code process(port, frame, off, len, sink)}) without allocating on the heap once warm.
 * The thread's allocated-bytes counter (HotSpot's {@code com.sun.management.ThreadMXBean}) is read
 * around a burst of packets; a few hundred bytes of slack cover the counter's own noise (a TLAB refill
 * can be charged to the burst), far below one object per packet.
 */
class AllocationTest {
    private static final int WARMUP_ROUNDS = 3000;
    private static final int MEASURED_ROUNDS = 2000;
    /** Allowed bytes for a whole measured burst (at least 2,000 packets): far below one object per packet. */
    private static final long SLACK_BYTES = 1024;
    private static final int ATTEMPTS = 8;

    /**
     * Programs whose packets allocate on purpose: what they deliver is an object the embedding
     * application keeps (a packet-in's frame, a digest's captured values). Their other paths (clones,
     * resubmit, recirculate, multicast) are measured through olddata, olddrop and the others.
     */
    private static final List<String> ALLOCATING = List.of(
            "basic", // packets to the CPU port: PacketIn
            "packetpath"); // digest(): Digest

    private record Packet(int port, byte[] frame) { }

    private static List<Packet> packets(String script) {
        List<Packet> out = new ArrayList<>();
        for (String line : StfRunner.lines(script)) {
            String l = line.strip();
            if (!l.startsWith("packet ")) {
                continue;
            }
            String[] parts = l.substring(7).strip().split("\\s+", 2);
            String hex = parts.length > 1 ? parts[1].replaceAll("\\s+", "") : "";
            if (hex.length() % 2 != 0) {
                continue;
            }
            out.add(new Packet(Integer.parseInt(parts[0]), HexFormat.of().parseHex(hex)));
        }
        return out;
    }

    private static List<Path> programs() throws IOException {
        List<Path> scripts = new ArrayList<>();
        try (Stream<Path> s = Files.list(StfTest.stfDir())) {
            s.filter(p -> p.toString().endsWith(".stf")).sorted().forEach(scripts::add);
        } catch (java.net.URISyntaxException e) {
            throw new IllegalStateException(e);
        }
        Path repo = Path.of("..", "..", "p4", "tests");
        if (Files.isDirectory(repo)) {
            try (Stream<Path> s = Files.list(repo)) {
                s.filter(p -> p.toString().endsWith(".stf"))
                        .filter(p -> Files.exists(repo.resolveSibling(p.getFileName().toString().replaceAll("\\.stf$", ".p4"))))
                        .sorted().forEach(scripts::add);
            }
        }
        return scripts;
    }

    private static Path programOf(Path script) {
        String base = script.getFileName().toString().replaceAll("\\.stf$", ".p4");
        Path sibling = script.resolveSibling(base);
        return Files.exists(sibling) ? sibling : script.getParent().resolveSibling(base);
    }

    @TestFactory
    Stream<DynamicTest> warmPacketsAllocateNothing() throws IOException {
        List<Path> scripts = programs();
        assertFalse(scripts.isEmpty());
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        assertTrue(threads.isThreadAllocatedMemorySupported());
        threads.setThreadAllocatedMemoryEnabled(true);
        return scripts.stream().flatMap(script -> Stream.of(true, false).map(specialize -> DynamicTest.dynamicTest(
                script.getFileName() + (specialize ? " (specialised)" : " (closures)"), () -> {
                    String script0 = Files.readString(script);
                    List<Packet> list = packets(script0);
                    if (list.isEmpty()) {
                        return;
                    }
                    // arrays, not the list: an iterator per round would be the test's own allocation
                    int[] ports = list.stream().mapToInt(Packet::port).toArray();
                    byte[][] frames = list.stream().map(Packet::frame).toArray(byte[][]::new);
                    P4Switch sw = P4Sim.compile(programOf(script))
                            .instantiate(SwitchConfig.defaults().withSpecialization(specialize));
                    // the script's tables, sessions and groups; its own outcome is StfTest's business
                    new StfRunner(sw).run(script.getFileName().toString(), script0);
                    long[] sent = new long[1];
                    PacketSink sink = (port, buf, off, len) -> sent[0] += len;
                    long tid = Thread.currentThread().threadId();
                    for (int r = 0; r < WARMUP_ROUNDS; r++) {
                        for (int i = 0; i < frames.length; i++) {
                            sw.process(ports[i], frames[i], 0, frames[i].length, sink);
                        }
                    }
                    int rounds = Math.max(MEASURED_ROUNDS / frames.length, 1) * 2;
                    long count = (long) rounds * frames.length;
                    // the JIT may still be compiling shared code (escape analysis removes temporaries
                    // only in compiled code): a burst is measured up to ATTEMPTS times, the least counts
                    long least = Long.MAX_VALUE;
                    for (int attempt = 0; attempt < ATTEMPTS && least > SLACK_BYTES; attempt++) {
                        long before = threads.getThreadAllocatedBytes(tid);
                        for (int r = 0; r < rounds; r++) {
                            for (int i = 0; i < frames.length; i++) {
                                sw.process(ports[i], frames[i], 0, frames[i].length, sink);
                            }
                        }
                        least = Math.min(least, threads.getThreadAllocatedBytes(tid) - before);
                    }
                    String name = script.getFileName().toString().replaceAll("\\.stf$", "");
                    System.out.printf("allocation: %s %s: %d bytes over %d packets%n",
                            name, specialize ? "specialised" : "closures", least, count);
                    if (!ALLOCATING.contains(name)) {
                        assertTrue(least <= SLACK_BYTES, name + ": " + least + " bytes allocated over " + count
                                + " warm packets (" + (least / count) + " per packet)");
                    }
                })));
    }
}
