package dev.innet.pegasus.server;

import dev.innet.sim.DurableStore;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;

/**
 * A server's client table (§6.4, after [43]): the most recent write request of each client this server
 * detected, with the version it executed under. Durable (synced before the write is answered), so a
 * restarted detector still recognises a retry; a lost table would execute a retried write a second
 * time under a newer version.
 */
public final class ClientTable {
    private static final String PREFIX = "ctab-";
    /** Encoded entry: client ip 4, client port 2, request id 4, key 16, version 4. */
    public static final int ENTRY_BYTES = 30;

    /** One client's most recent detected write. */
    public record Entry(int clientIp, int clientPort, long reqId, byte[] key, long version) {
        public boolean sameRequest(int ip, int port, long id) {
            return clientIp == ip && clientPort == port && reqId == id;
        }

        void encode(ByteBuffer b) {
            b.putInt(clientIp).putShort((short) clientPort).putInt((int) reqId).put(key).putInt((int) version);
        }

        static Entry decode(ByteBuffer b) {
            int ip = b.getInt();
            int port = b.getShort() & 0xffff;
            long id = b.getInt() & 0xffff_ffffL;
            byte[] key = new byte[16];
            b.get(key);
            return new Entry(ip, port, id, key, b.getInt() & 0xffff_ffffL);
        }
    }

    private final DurableStore durable;

    public ClientTable(DurableStore durable) {
        this.durable = durable;
    }

    private static String name(int ip, int port) {
        return PREFIX + HexFormat.of().toHexDigits(ip) + "-" + port;
    }

    /** The client's recorded entry, if its most recent request is {@code reqId}. */
    public Optional<Entry> lookup(int ip, int port, long reqId) {
        return get(name(ip, port)).filter(e -> e.sameRequest(ip, port, reqId));
    }

    /**
     * Whether the client's recorded request is newer than {@code reqId} (request ids only grow per client):
     * a copy of an older request, delayed in the network after the client moved on.
     */
    public boolean recordsNewerThan(int ip, int port, long reqId) {
        return get(name(ip, port)).filter(e -> Long.compareUnsigned(e.reqId(), reqId) > 0).isPresent();
    }

    /** Records the client's newest request (durably: synced before returning). */
    public void record(Entry e) {
        put(e);
        durable.sync();
    }

    /** The entries whose request wrote {@code key}, in a deterministic order (for migration). */
    public List<Entry> entriesFor(byte[] key) {
        List<Entry> out = new ArrayList<>();
        for (String n : durable.keys()) {
            if (n.startsWith(PREFIX)) {
                get(n).filter(e -> Arrays.equals(e.key(), key)).ifPresent(out::add);
            }
        }
        return out;
    }

    /** Merges migrated entries: per client the later request wins (§6.4 "taking the latest entry"). */
    public void merge(List<Entry> entries) {
        for (Entry e : entries) {
            Optional<Entry> mine = get(name(e.clientIp(), e.clientPort()));
            if (mine.isEmpty() || Long.compareUnsigned(mine.get().reqId(), e.reqId()) < 0) {
                put(e);
            }
        }
        durable.sync();
    }

    public static byte[] encode(List<Entry> entries) {
        ByteBuffer b = ByteBuffer.allocate(entries.size() * ENTRY_BYTES);
        entries.forEach(e -> e.encode(b));
        return b.array();
    }

    /** Entries from a migration message; a length that is not a multiple of an entry is rejected. */
    public static List<Entry> decode(byte[] bytes) {
        if (bytes.length % ENTRY_BYTES != 0) {
            throw new IllegalArgumentException("client-table payload of " + bytes.length + " bytes is not whole entries");
        }
        ByteBuffer b = ByteBuffer.wrap(bytes);
        List<Entry> out = new ArrayList<>();
        while (b.hasRemaining()) {
            out.add(Entry.decode(b));
        }
        return out;
    }

    private void put(Entry e) {
        ByteBuffer b = ByteBuffer.allocate(ENTRY_BYTES);
        e.encode(b);
        durable.put(name(e.clientIp(), e.clientPort()), b.array());
    }

    private Optional<Entry> get(String name) {
        return durable.get(name).map(bytes -> Entry.decode(ByteBuffer.wrap(bytes)));
    }
}
