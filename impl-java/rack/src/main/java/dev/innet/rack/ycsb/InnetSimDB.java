package dev.innet.rack.ycsb;

import dev.innet.protocol.KvResult;
import dev.innet.protocol.ProtocolRegistry;
import dev.innet.rack.Rack;
import dev.innet.rack.workload.DriverClient;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.Vector;
import site.ycsb.ByteArrayByteIterator;
import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.DBException;
import site.ycsb.Status;

/**
 * YCSB binding: YCSB's workloads drive a simulated innet rack (p4sim running the chosen program, real
 * servers and controller). One rack per JVM, shared by all YCSB threads; each thread gets its own
 * client host, and operations run one at a time (the simulation is single-threaded, so threads take
 * turns: use one YCSB thread for a reproducible run). Records map to innet as {@link FieldCodec} says;
 * {@code update} writes the given fields as the whole record (exact with fieldcount=1, the setting whose
 * records a switch can cache). Scans are not part of a key-value cache: NOT_IMPLEMENTED (workload E).
 *
 * <p>Properties: {@code innet.root} (repository, default "."), {@code innet.program}
 * (farreach|netcache|nocache, default farreach), {@code innet.servers} (default 4),
 * {@code innet.clients} (client hosts = the most YCSB threads, default 8), {@code innet.cache}
 * (default 1000), {@code innet.seed} (default 1).
 */
public final class InnetSimDB extends DB {
    private static final Object LOCK = new Object();
    private static Rack rack;
    private static int nextClient;

    private int clientHost;

    @Override
    public void init() throws DBException {
        Properties p = getProperties();
        synchronized (LOCK) {
            if (rack == null) {
                rack = Rack.builder(Path.of(p.getProperty("innet.root", ".")).toAbsolutePath().normalize(),
                        Long.parseLong(p.getProperty("innet.seed", "1")))
                        .protocol(protocolOf(p.getProperty("innet.program", "farreach")))
                        .servers(Integer.parseInt(p.getProperty("innet.servers", "4")))
                        .clients(Integer.parseInt(p.getProperty("innet.clients", "8")))
                        .cacheCapacity(Integer.parseInt(p.getProperty("innet.cache", "1000")))
                        .hotThreshold(Integer.parseInt(p.getProperty("innet.hotthreshold", "0")))
                        .driverClients().out(new PrintStream(OutputStream.nullOutputStream())).build();
                rack.advance(1_000_000); // the controller programs the switch before traffic
            }
            if (nextClient >= rack.clients().size()) {
                throw new DBException("more YCSB threads than innet.clients client hosts");
            }
            clientHost = rack.clients().get(nextClient++);
        }
    }

    private static dev.innet.protocol.Protocol protocolOf(String name) throws DBException {
        try {
            return ProtocolRegistry.byName(name);
        } catch (IllegalArgumentException e) {
            throw new DBException("innet.program: " + e.getMessage());
        }
    }

    /** The shared rack (for tests and reports after a run). */
    public static Rack rack() {
        synchronized (LOCK) {
            return rack;
        }
    }

    /** Forgets the shared rack so the next init builds a fresh one (tests run several workloads). */
    public static void reset() {
        synchronized (LOCK) {
            rack = null;
            nextClient = 0;
        }
    }

    private KvResult execute(DriverClient.Kind kind, String key, byte[] value) {
        synchronized (LOCK) {
            return rack.execute(clientHost, kind, FieldCodec.wireKey(key), value);
        }
    }

    @Override
    public Status read(String table, String key, Set<String> fields, Map<String, ByteIterator> result) {
        KvResult r = execute(DriverClient.Kind.GET, key, null);
        return switch (r.outcome()) {
            case OK -> {
                for (Map.Entry<String, byte[]> f : FieldCodec.decode(r.value()).entrySet()) {
                    if (fields == null || fields.contains(f.getKey())) {
                        result.put(f.getKey(), new ByteArrayByteIterator(f.getValue()));
                    }
                }
                yield Status.OK;
            }
            case NOT_FOUND -> Status.NOT_FOUND;
            case FAILED -> Status.ERROR;
            case TIMED_OUT -> Status.SERVICE_UNAVAILABLE;
        };
    }

    @Override
    public Status scan(String table, String startkey, int recordcount, Set<String> fields,
            Vector<HashMap<String, ByteIterator>> result) {
        return Status.NOT_IMPLEMENTED;
    }

    @Override
    public Status update(String table, String key, Map<String, ByteIterator> values) {
        return write(key, values);
    }

    @Override
    public Status insert(String table, String key, Map<String, ByteIterator> values) {
        return write(key, values);
    }

    private Status write(String key, Map<String, ByteIterator> values) {
        Map<String, byte[]> fields = new HashMap<>();
        values.forEach((name, it) -> fields.put(name, it.toArray()));
        byte[] value = FieldCodec.encode(fields);
        if (value.length > dev.innet.wire.InnetMessage.MAX_VALUE_BYTES) {
            return Status.BAD_REQUEST;
        }
        return status(execute(DriverClient.Kind.PUT, key, value));
    }

    @Override
    public Status delete(String table, String key) {
        return status(execute(DriverClient.Kind.DELETE, key, null));
    }

    private static Status status(KvResult r) {
        return switch (r.outcome()) {
            case OK -> Status.OK;
            case NOT_FOUND -> Status.NOT_FOUND;
            case FAILED -> Status.ERROR;
            case TIMED_OUT -> Status.SERVICE_UNAVAILABLE;
        };
    }
}
