package dev.innet.sim.history;

import dev.innet.sim.Clock;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.TreeMap;

/**
 * Records client operations for linearizability checking (jepsen/cmd/lincheck) in the JSON Lines
 * format of docs/history-format.md: one line per operation with its invocation and completion times.
 *
 * <p>It lives outside the nodes (clients get it from whoever builds them), so a client crash does not
 * lose it: operations a crashed client never completed stay open and are written with result
 * {@code unknown} and {@code "return": null}. Keys and values are bytes and are written as lowercase hex.
 *
 * <p>The recorder enforces the format's per-client rules when they are broken, not when the checker
 * reads the file: at most one outstanding operation per client, and a client whose operation ended
 * {@code unknown} invokes nothing more (its successor takes a new client id). Times come from the
 * injected clock, so in a simulation they are simulated nanoseconds. Live, give every client the same
 * recorder (or recorders on the same clock): the format needs one clock for all clients. It is
 * thread-safe so that live clients on several event loops can share it.
 */
public final class HistoryRecorder {
    /** Keys are the innet header's fixed 16 bytes. */
    public static final int KEY_BYTES = 16;
    /** A bound so a runaway workload fails instead of filling the heap. */
    public static final int MAX_OPERATIONS = 1_000_000;

    private static final HexFormat HEX = HexFormat.of();

    private final Clock clock;
    private final List<Operation> operations = new ArrayList<>();
    /** Per client: its open operation, if any. */
    private final TreeMap<Integer, Operation> open = new TreeMap<>();
    /** Clients whose last operation ended unknown and which may therefore not invoke again. */
    private final TreeMap<Integer, Long> retired = new TreeMap<>();

    public HistoryRecorder(Clock clock) {
        this.clock = clock;
    }

    /** One operation as recorded. {@code returnNanos} is -1 while open or when the result is unknown. */
    public static final class Operation {
        private final long id;
        private final int client;
        private final OpKind kind;
        private final byte[] key;
        private final long callNanos;
        private byte[] value;
        private long returnNanos = -1;
        private OpResult result;

        private Operation(long id, int client, OpKind kind, byte[] key, byte[] value, long callNanos) {
            this.id = id;
            this.client = client;
            this.kind = kind;
            this.key = key;
            this.value = value;
            this.callNanos = callNanos;
        }

        public long id() {
            return id;
        }

        public int client() {
            return client;
        }

        public OpKind kind() {
            return kind;
        }

        /** The 16-byte wire key (a copy). */
        public byte[] key() {
            return key.clone();
        }

        public long callNanos() {
            return callNanos;
        }

        public long returnNanos() {
            return returnNanos;
        }

        /** A put's, create's or write's written value, or a successful get's or stat's read value; null otherwise. */
        public byte[] value() {
            return value == null ? null : value.clone();
        }

        /** Null while the operation is open. */
        public OpResult result() {
            return result;
        }

        public boolean isOpen() {
            return result == null;
        }
    }

    /**
     * Records the invocation of an operation now and returns its id. {@code value} is the written value
     * for a put and must be null otherwise.
     */
    public synchronized long invoke(int client, OpKind kind, byte[] key, byte[] value) {
        if (key == null || key.length != KEY_BYTES) {
            throw new IllegalArgumentException("history keys are exactly " + KEY_BYTES + " bytes");
        }
        if (kind.writesValue() != (value != null)) {
            throw new IllegalArgumentException(kind.writesValue() ? "a " + kind.json() + " records the value it writes"
                    : "only put, create and write record a value at invocation");
        }
        Operation pending = open.get(client);
        if (pending != null) {
            throw new IllegalStateException("client " + client + " invokes while operation " + pending.id
                    + " is outstanding: a client has at most one outstanding operation");
        }
        if (retired.containsKey(client)) {
            throw new IllegalStateException("client " + client + " invokes after operation " + retired.get(client)
                    + " ended unknown: its successor must use a new client id");
        }
        if (operations.size() >= MAX_OPERATIONS) {
            throw new IllegalStateException("history holds " + MAX_OPERATIONS + " operations already");
        }
        Operation op = new Operation(operations.size() + 1L, client, kind, key.clone(),
                value == null ? null : value.clone(), clock.nowNanos());
        operations.add(op);
        open.put(client, op);
        return op.id;
    }

    /**
     * Records the completion of operation {@code id} now. {@code readValue} is the value a get found
     * (required exactly when a get is {@code OK}); for {@code UNKNOWN} the operation stays without a
     * return time, as the checker must assume it may take effect at any later moment, and the client
     * id is retired (a crashed client's successor takes a new id); see {@link #timedOut} for a client
     * that gives up and continues.
     */
    public synchronized void complete(long id, OpResult result, byte[] readValue) {
        if (id < 1 || id > operations.size()) {
            throw new IllegalArgumentException("no operation " + id);
        }
        Operation op = operations.get((int) (id - 1));
        if (!op.isOpen()) {
            throw new IllegalStateException("operation " + id + " already completed with " + op.result);
        }
        if (result == OpResult.NOT_FOUND && !(op.kind.reads() || op.kind == OpKind.WRITE)) {
            throw new IllegalArgumentException("not_found is a get, stat or write result, not a " + op.kind.json() + " result");
        }
        if (result == OpResult.EXISTS && op.kind != OpKind.CREATE) {
            throw new IllegalArgumentException("exists is a create result, not a " + op.kind.json() + " result");
        }
        boolean readsValue = op.kind.reads() && result == OpResult.OK;
        if (readsValue != (readValue != null)) {
            throw new IllegalArgumentException(readsValue ? "a successful " + op.kind.json() + " records the value it read"
                    : "only a successful get or stat records a read value");
        }
        op.result = result;
        if (readsValue) {
            op.value = readValue.clone();
        }
        if (result == OpResult.UNKNOWN) {
            retired.put(op.client, op.id);
        } else {
            op.returnNanos = clock.nowNanos();
        }
        open.remove(op.client);
    }

    /**
     * Records that the client gave up waiting for operation {@code id} now and moves on under the same
     * client id: the result is unknown (it may still take effect later) but the client's next operation
     * is not concurrent with it from the client's point of view (docs/history-format.md §2.3).
     */
    public synchronized void timedOut(long id) {
        complete(id, OpResult.UNKNOWN, null);
        Operation op = operations.get((int) (id - 1));
        retired.remove(op.client);
        op.returnNanos = clock.nowNanos();
    }

    /** All operations in invocation order. */
    public synchronized List<Operation> operations() {
        return List.copyOf(operations);
    }

    /** The history as JSON Lines; operations still open are written as unknown. */
    public synchronized String toJsonLines() {
        StringBuilder sb = new StringBuilder();
        for (Operation op : operations) {
            appendLine(sb, op);
        }
        return sb.toString();
    }

    /**
     * Writes the history to {@code out} (the harness opens the file: the recorder is used by client
     * nodes and so stays free of file I/O itself).
     */
    public synchronized void writeTo(Appendable out) {
        try {
            out.append(toJsonLines());
        } catch (IOException e) {
            throw new UncheckedIOException("writing the history", e);
        }
    }

    /**
     * The history lines (with their newlines) of the operations from index {@code from} up to the first
     * that is still open, read under the recorder's lock: a journal thread beside the client's event loop
     * must never see an operation half completed (its result set, its read value not yet).
     */
    public synchronized List<String> endedLinesFrom(int from) {
        List<String> lines = new ArrayList<>();
        for (int i = from; i < operations.size() && !operations.get(i).isOpen(); i++) {
            lines.add(jsonLine(operations.get(i)));
        }
        return lines;
    }

    /**
     * One operation as its history line (with the newline); an open operation is written as unknown. For
     * an operation taken from {@link #operations()} (whose lock makes its fields visible to the caller).
     */
    public static String jsonLine(Operation op) {
        StringBuilder sb = new StringBuilder();
        appendLine(sb, op);
        return sb.toString();
    }

    private static void appendLine(StringBuilder sb, Operation op) {
        OpResult result = op.isOpen() ? OpResult.UNKNOWN : op.result;
        sb.append("{\"client\":").append(op.client);
        sb.append(",\"op\":");
        appendString(sb, op.kind.json());
        sb.append(",\"key\":");
        appendString(sb, HEX.formatHex(op.key));
        boolean hasValue = op.kind.writesValue() || (op.kind.reads() && result == OpResult.OK);
        if (hasValue) {
            sb.append(",\"value\":");
            appendString(sb, HEX.formatHex(op.value));
        }
        sb.append(",\"call\":").append(op.callNanos);
        sb.append(",\"return\":");
        if (op.returnNanos < 0) {
            sb.append("null");
        } else {
            sb.append(op.returnNanos);
        }
        sb.append(",\"result\":");
        appendString(sb, result.json());
        sb.append(",\"id\":").append(op.id);
        sb.append("}\n");
    }

    /** A JSON string literal (RFC 8259 escaping); every string we write goes through here. */
    static void appendString(StringBuilder sb, String s) {
        sb.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                case '\b' -> sb.append("\\b");
                case '\f' -> sb.append("\\f");
                default -> {
                    if (c < 0x20) {
                        sb.append(String.format("\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        sb.append('"');
    }
}
