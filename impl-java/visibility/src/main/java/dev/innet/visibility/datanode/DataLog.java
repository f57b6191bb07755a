package dev.innet.visibility.datanode;

import dev.innet.sim.DurableStore;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A data node's append-only log on its durable store (one durable key per entry, synced before the
 * write is acknowledged), with the state derived from it: each slot's last timestamp (the slot's
 * timestamp source, §III-B 1) and the entry each request wrote (idempotent retries, §III-E 1). Both are
 * rebuilt from the log when the node restarts, so a data node crash loses no acknowledged write and
 * never hands out a timestamp twice.
 */
public final class DataLog {
    private final DurableStore store;
    private final List<LogEntry> entries = new ArrayList<>();
    private final Map<Integer, Long> lastTsOfSlot = new HashMap<>();
    private final Map<RequestId, Integer> positionOfRequest = new HashMap<>();
    /** key (its bytes as a Latin-1 string) -> position of its newest entry */
    private final Map<String, Integer> newestOfKey = new HashMap<>();

    record RequestId(int clientIp, long reqId) {}

    public DataLog(DurableStore store) {
        this.store = store;
        for (long position = 0; ; position++) {
            var bytes = store.get(keyOf(position));
            if (bytes.isEmpty()) {
                break;
            }
            remember(LogEntry.decode(bytes.get()));
        }
    }

    private static String keyOf(long position) {
        return "log-" + position;
    }

    private void remember(LogEntry e) {
        int position = entries.size();
        entries.add(e);
        lastTsOfSlot.merge(e.ext().index(), e.ts(), Math::max);
        positionOfRequest.put(new RequestId(e.clientIp(), e.reqId()), position);
        newestOfKey.put(keyString(e.key()), position);
    }

    private static String keyString(byte[] key) {
        return new String(key, java.nio.charset.StandardCharsets.ISO_8859_1);
    }

    /** The position of the key's newest entry (entries of a key are appended in timestamp order), or -1. */
    public long newestOf(byte[] key) {
        Integer p = newestOfKey.get(keyString(key));
        return p == null ? -1 : p;
    }

    /** Appends and syncs; returns the position. */
    public long append(LogEntry e) {
        long position = entries.size();
        store.put(keyOf(position), e.encode());
        store.sync();
        remember(e);
        return position;
    }

    /** The next timestamp of {@code slot}'s source (not yet taken). */
    public long nextTs(int slot) {
        return lastTsOfSlot.getOrDefault(slot, 0L) + 1;
    }

    /** The position the request already wrote, or -1. */
    public long positionOf(int clientIp, long reqId) {
        Integer p = positionOfRequest.get(new RequestId(clientIp, reqId));
        return p == null ? -1 : p;
    }

    /** The entry at {@code position}, or null if there is none. */
    public LogEntry at(long position) {
        return position >= 0 && position < entries.size() ? entries.get((int) position) : null;
    }

    public int size() {
        return entries.size();
    }

    /** Every slot's last timestamp. */
    public Map<Integer, Long> lastTimestamps() {
        return Map.copyOf(lastTsOfSlot);
    }
}
