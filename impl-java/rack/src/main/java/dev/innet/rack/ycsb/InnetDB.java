package dev.innet.rack.ycsb;

import dev.innet.protocol.KvCommandLine;
import dev.innet.protocol.KvResult;
import dev.innet.sim.live.CommandSocket;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.Vector;
import java.util.concurrent.atomic.AtomicInteger;
import site.ycsb.ByteArrayByteIterator;
import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.DBException;
import site.ycsb.Status;

/**
 * YCSB binding for innet racks, simulated or live. It talks to the rack's client hosts over their
 * command sockets ({@code DIR/sock/hN.sock}, one {@link KvCommandLine} per operation): a live rack's
 * client processes ({@code ./innet rack up}, DIR = {@code .cache/rack/NAME}) or a {@link RackService}
 * holding a simulated rack (DIR = {@code .cache/ycsb/NAME}). Each YCSB thread gets a client host of its
 * own, so threads never wait for each other here: on a live rack their operations run in parallel on
 * different processes, on a simulated one concurrently in simulated time. Because the rack outlives the
 * YCSB process, a run phase finds what the load phase wrote.
 *
 * <p>Records map to innet as {@link FieldCodec} says. {@code update} merges the given fields into the
 * stored record (a read, then a write of the merged record: not atomic, so concurrent updates of
 * different fields of one record can lose one). Range scans are not a key-value cache's operation
 * (the papers leave out YCSB's workload E too): {@code scan} is NOT_IMPLEMENTED.
 *
 * <p>Properties: {@code innet.rack} (the rack's directory, default {@code .cache/ycsb/sim} under
 * {@code innet.root}), {@code innet.timeout.ms} (per operation, default 60000).
 */
public final class InnetDB extends DB {
    /** Client hosts handed out to this process's YCSB threads (one each, in host order). */
    private static final AtomicInteger NEXT_THREAD = new AtomicInteger();

    private Path socket;
    private long timeoutMillis;

    @Override
    public void init() throws DBException {
        Properties p = getProperties();
        Path root = Path.of(p.getProperty("innet.root", System.getProperty("innet.root", ".")));
        Path dir = root.resolve(p.getProperty("innet.rack", ".cache/ycsb/sim")).toAbsolutePath().normalize();
        timeoutMillis = Long.parseLong(p.getProperty("innet.timeout.ms", "60000"));
        java.util.List<Path> clients = clientSockets(dir);
        int thread = NEXT_THREAD.getAndIncrement();
        if (thread >= clients.size()) {
            throw new DBException("YCSB thread " + (thread + 1) + " has no client host: the rack at " + dir + " has "
                    + clients.size() + " client(s); use at most that many -threads (or start the rack with more clients)");
        }
        socket = clients.get(thread);
    }

    /** The command sockets of the rack's client hosts, in host order (those whose health says role=client). */
    static java.util.List<Path> clientSockets(Path dir) throws DBException {
        Path sockets = dir.resolve("sock");
        java.util.List<Path> found = new java.util.ArrayList<>();
        try (var files = Files.list(sockets)) {
            for (Path f : files.filter(f -> f.getFileName().toString().matches("h\\d+\\.sock")).toList()) {
                if (CommandSocket.ask(f, "health", 5_000).contains("role=client")) {
                    found.add(f);
                }
            }
        } catch (IOException e) {
            throw new DBException("no innet rack at " + dir + " (start one: ./innet ycsb serve, or ./innet rack up): "
                    + e.getMessage());
        }
        if (found.isEmpty()) {
            throw new DBException("the rack at " + dir + " has no client host answering on " + sockets);
        }
        found.sort(java.util.Comparator.comparingInt(f -> Integer.parseInt(f.getFileName().toString().replaceAll("\\D", ""))));
        return found;
    }

    /** Forgets which client hosts this process's threads took (tests run several YCSB clients in one JVM). */
    public static void resetThreads() {
        NEXT_THREAD.set(0);
    }

    private KvResult call(KvCommandLine.Op op, String key, byte[] value) throws IOException {
        String reply = CommandSocket.ask(socket, KvCommandLine.request(op, FieldCodec.wireKey(key), value), timeoutMillis);
        if (reply.startsWith("error")) {
            throw new IOException(socket + ": " + reply);
        }
        return KvCommandLine.parseReply(reply);
    }

    @Override
    public Status read(String table, String key, Set<String> fields, Map<String, ByteIterator> result) {
        try {
            KvResult r = call(KvCommandLine.Op.GET, key, null);
            if (r.outcome() == KvResult.Outcome.OK) {
                for (Map.Entry<String, byte[]> f : FieldCodec.decode(r.value()).entrySet()) {
                    if (fields == null || fields.contains(f.getKey())) {
                        result.put(f.getKey(), new ByteArrayByteIterator(f.getValue()));
                    }
                }
            }
            return status(r);
        } catch (IOException | IllegalArgumentException e) {
            return failed(e);
        }
    }

    @Override
    public Status scan(String table, String startkey, int recordcount, Set<String> fields,
            Vector<HashMap<String, ByteIterator>> result) {
        return Status.NOT_IMPLEMENTED;
    }

    @Override
    public Status update(String table, String key, Map<String, ByteIterator> values) {
        try {
            KvResult current = call(KvCommandLine.Op.GET, key, null);
            if (current.outcome() != KvResult.Outcome.OK && current.outcome() != KvResult.Outcome.NOT_FOUND) {
                return status(current);
            }
            Map<String, byte[]> record = current.outcome() == KvResult.Outcome.OK ? FieldCodec.decode(current.value())
                    : new HashMap<>();
            values.forEach((name, it) -> record.put(name, it.toArray()));
            return write(key, record);
        } catch (IOException | IllegalArgumentException e) {
            return failed(e);
        }
    }

    @Override
    public Status insert(String table, String key, Map<String, ByteIterator> values) {
        Map<String, byte[]> record = new HashMap<>();
        values.forEach((name, it) -> record.put(name, it.toArray()));
        try {
            return write(key, record);
        } catch (IOException | IllegalArgumentException e) {
            return failed(e);
        }
    }

    private Status write(String key, Map<String, byte[]> record) throws IOException {
        byte[] value = FieldCodec.encode(record);
        if (value.length > dev.innet.wire.InnetMessage.MAX_VALUE_BYTES) {
            return new Status("BAD_REQUEST", "record of " + value.length + " bytes exceeds innet's "
                    + dev.innet.wire.InnetMessage.MAX_VALUE_BYTES + "-byte values");
        }
        return status(call(KvCommandLine.Op.PUT, key, value));
    }

    @Override
    public Status delete(String table, String key) {
        try {
            return status(call(KvCommandLine.Op.DELETE, key, null));
        } catch (IOException e) {
            return failed(e);
        }
    }

    private static Status status(KvResult r) {
        return switch (r.outcome()) {
            case OK -> Status.OK;
            case NOT_FOUND -> Status.NOT_FOUND;
            case FAILED -> Status.ERROR;
            case TIMED_OUT -> Status.SERVICE_UNAVAILABLE;
        };
    }

    private static Status failed(Exception e) {
        System.err.println("innet YCSB binding: " + e.getMessage());
        return Status.ERROR;
    }
}
