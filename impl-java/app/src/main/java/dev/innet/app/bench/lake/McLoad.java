package dev.innet.app.bench.lake;

import dev.innet.lake.wire.ByteString;
import dev.innet.lake.wire.McDatagram;
import dev.innet.lake.wire.McException;
import dev.innet.lake.wire.McFrame;
import dev.innet.lake.wire.McOpcode;
import dev.innet.lake.wire.McRequest;
import dev.innet.lake.wire.McResponse;
import dev.innet.lake.wire.McStatus;
import dev.innet.lake.wire.MemcachedUdpCodec;
import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

/**
 * A closed-loop memcached load over UDP and the binary protocol (innet's own codec): each of
 * {@code threads} clients has one socket and one GET outstanding, keys drawn uniformly from a set that
 * {@link #preload} SET first. Measures completed GETs per second and each GET's round trip. The keys
 * and values have the lengths asked for: 16 and 32 bytes are what LaKe caches; any other key length
 * makes every GET go through to memcached (lake.p4, LK-9), the no-cache baseline through the same switch.
 */
public final class McLoad {
    /** One run's figures: latencies in microseconds. */
    public record Result(long gets, long hits, long timeouts, double seconds, double p50Micros, double p99Micros,
            double meanMicros) {
        public double opsPerSecond() {
            return gets / seconds;
        }

        /** One line that {@link #parse} reads back (the load runs inside a namespace, in its own JVM). */
        public String line() {
            return String.format(java.util.Locale.ROOT, "mcload gets=%d hits=%d timeouts=%d seconds=%.3f p50_us=%.1f p99_us=%.1f mean_us=%.1f",
                    gets, hits, timeouts, seconds, p50Micros, p99Micros, meanMicros);
        }

        public static Result parse(String output) {
            for (String l : output.split("\n")) {
                if (l.startsWith("mcload ")) {
                    java.util.Map<String, String> f = new java.util.HashMap<>();
                    for (String kv : l.substring(7).split(" ")) {
                        f.put(kv.substring(0, kv.indexOf('=')), kv.substring(kv.indexOf('=') + 1));
                    }
                    return new Result(Long.parseLong(f.get("gets")), Long.parseLong(f.get("hits")),
                            Long.parseLong(f.get("timeouts")), Double.parseDouble(f.get("seconds")),
                            Double.parseDouble(f.get("p50_us")), Double.parseDouble(f.get("p99_us")),
                            Double.parseDouble(f.get("mean_us")));
                }
            }
            throw new IllegalArgumentException("no 'mcload' line in: " + output);
        }
    }

    /** Where and what: memcached's address, the source address (null: any), key count and lengths. */
    public record Target(InetSocketAddress memcached, InetAddress source, int keys, int keyBytes, int valueBytes) {
        public Target {
            if (keys < 1 || keyBytes < 1 || keyBytes > McRequest.MAX_KEY_BYTES || valueBytes < 0 || valueBytes > 1000) {
                throw new IllegalArgumentException("bad load: " + keys + " keys of " + keyBytes + " bytes, values of "
                        + valueBytes + " bytes (keys 1-250 bytes, values at most 1000)");
            }
        }

        ByteString key(int i) {
            byte[] k = new byte[keyBytes];
            Arrays.fill(k, (byte) '-');
            byte[] name = ("k" + i).getBytes(StandardCharsets.US_ASCII);
            System.arraycopy(name, 0, k, 0, Math.min(name.length, keyBytes));
            return ByteString.of(k);
        }

        ByteString value(int i) {
            byte[] v = new byte[valueBytes];
            Arrays.fill(v, (byte) ('a' + i % 26));
            return ByteString.of(v);
        }
    }

    static final int TIMEOUT_MILLIS = 200;

    private McLoad() {}

    /** SETs every key once, retrying a lost one; fails if memcached does not store one. */
    public static void preload(Target t) throws IOException {
        try (DatagramSocket socket = open(t)) {
            for (int i = 0; i < t.keys(); i++) {
                McRequest set = McRequest.set(t.key(i), t.value(i), 0, 0, i);
                McResponse r = exchange(socket, t, set, i & 0xffff, 10);
                if (r == null || r.status() != McStatus.OK) {
                    throw new IOException("memcached did not store key " + i + ": " + r);
                }
            }
        }
    }

    /** {@code threads} closed-loop GET clients for {@code seconds} after {@code warmupSeconds}. */
    public static Result run(Target t, int threads, double warmupSeconds, double seconds, long seed) throws Exception {
        if (threads < 1 || seconds <= 0 || warmupSeconds < 0) {
            throw new IllegalArgumentException("threads >= 1 and a positive duration, got " + threads + ", " + seconds);
        }
        long start = System.nanoTime() + (long) (warmupSeconds * 1e9);
        long end = start + (long) (seconds * 1e9);
        List<Thread> workers = new ArrayList<>();
        List<long[]> counts = new ArrayList<>();
        List<long[]> samples = new ArrayList<>();
        List<Exception> failures = java.util.Collections.synchronizedList(new ArrayList<>());
        for (int w = 0; w < threads; w++) {
            long[] c = new long[3]; // gets, hits, timeouts (measured window only)
            long[] lat = new long[2_000_000];
            counts.add(c);
            samples.add(lat);
            Random rnd = new Random(seed * 31 + w);
            workers.add(Thread.ofPlatform().name("mcload-" + w).start(() -> {
                try (DatagramSocket socket = open(t)) {
                    int id = 1;
                    while (true) {
                        long now = System.nanoTime();
                        if (now >= end) {
                            return;
                        }
                        int k = rnd.nextInt(t.keys());
                        id = id == 0xffff ? 1 : id + 1;
                        long sent = System.nanoTime();
                        McResponse r = exchange(socket, t, McRequest.get(t.key(k), id), id, 1);
                        long rtt = System.nanoTime() - sent;
                        if (sent < start) {
                            continue;
                        }
                        if (r == null) {
                            c[2]++;
                            continue;
                        }
                        if (c[0] < lat.length) {
                            lat[(int) c[0]] = rtt;
                        }
                        c[0]++;
                        if (r.status() == McStatus.OK) {
                            c[1]++;
                        }
                    }
                } catch (Exception e) {
                    failures.add(e);
                }
            }));
        }
        for (Thread w : workers) {
            w.join();
        }
        if (!failures.isEmpty()) {
            throw failures.get(0);
        }
        long gets = 0, hits = 0, timeouts = 0;
        List<Long> all = new ArrayList<>();
        for (int w = 0; w < threads; w++) {
            gets += counts.get(w)[0];
            hits += counts.get(w)[1];
            timeouts += counts.get(w)[2];
            long n = Math.min(counts.get(w)[0], samples.get(w).length);
            for (int i = 0; i < n; i++) {
                all.add(samples.get(w)[i]);
            }
        }
        if (all.isEmpty()) {
            return new Result(0, 0, timeouts, seconds, Double.NaN, Double.NaN, Double.NaN);
        }
        long[] sorted = all.stream().mapToLong(Long::longValue).sorted().toArray();
        double mean = Arrays.stream(sorted).average().orElse(Double.NaN);
        return new Result(gets, hits, timeouts, seconds, sorted[(int) (0.50 * (sorted.length - 1))] / 1e3,
                sorted[(int) (0.99 * (sorted.length - 1))] / 1e3, mean / 1e3);
    }

    private static DatagramSocket open(Target t) throws IOException {
        DatagramSocket s = new DatagramSocket(new InetSocketAddress(t.source(), 0));
        s.setSoTimeout(TIMEOUT_MILLIS);
        return s;
    }

    /** Sends {@code request} up to {@code attempts} times; its response, or null if none came in time. */
    private static McResponse exchange(DatagramSocket socket, Target t, McRequest request, int requestId, int attempts)
            throws IOException {
        byte[] out = MemcachedUdpCodec.encode(new McDatagram(McFrame.single(requestId), request));
        byte[] buf = new byte[2048];
        for (int a = 0; a < attempts; a++) {
            socket.send(new DatagramPacket(out, out.length, t.memcached()));
            long deadline = System.nanoTime() + TIMEOUT_MILLIS * 1_000_000L;
            while (System.nanoTime() < deadline) {
                DatagramPacket p = new DatagramPacket(buf, buf.length);
                try {
                    socket.receive(p);
                } catch (SocketTimeoutException e) {
                    break;
                }
                try {
                    McDatagram d = MemcachedUdpCodec.decode(Arrays.copyOf(buf, p.getLength()));
                    if (d.frame().requestId() == requestId && d.message() instanceof McResponse r
                            && r.opaque() == request.opaque() && r.opcode() == request.opcode()) {
                        return r;
                    }
                } catch (McException late) {
                    // not a datagram we can read: ignore it
                }
            }
        }
        return null;
    }

    /**
     * {@code McLoad HOST PORT SOURCE|- KEYS KEY_BYTES VALUE_BYTES THREADS WARMUP_S SECONDS [preload]}: run
     * from inside a client's namespace by {@code ./innet bench lake}; prints the {@link Result#line()}.
     */
    public static void main(String[] args) throws Exception {
        if (args.length < 9 || args.length > 10) {
            System.err.println("usage: McLoad HOST PORT SOURCE|- KEYS KEY_BYTES VALUE_BYTES THREADS WARMUP_S SECONDS [preload]");
            System.exit(2);
        }
        Target t = new Target(new InetSocketAddress(InetAddress.getByName(args[0]), Integer.parseInt(args[1])),
                args[2].equals("-") ? null : InetAddress.getByName(args[2]), Integer.parseInt(args[3]),
                Integer.parseInt(args[4]), Integer.parseInt(args[5]));
        if (args.length == 10 && args[9].equals("preload")) {
            preload(t);
        }
        System.out.println(run(t, Integer.parseInt(args[6]), Double.parseDouble(args[7]), Double.parseDouble(args[8]), 1).line());
    }
}
