package dev.innet.live;

import dev.innet.live.workload.WorkloadHost;
import dev.innet.sim.history.HistoryRecorder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * A client process's journal of the run in progress, {@code FILE.journal} next to the run's history part
 * FILE, so that a client killed by a nemesis still leaves its share of the history. Two kinds of line:
 * <pre>
 * ids BASE                                       first: the process's rack-wide id base ({@link #idBase})
 * invoke N CALL_NANOS KIND KEY_HEX VALUE_HEX|-   written before operation N is invoked (write-ahead)
 * op {history line}                              operation N once it has ended (flushed every 50 ms)
 * </pre>
 * Written without fsync: the fault is a killed process, whose writes the kernel keeps; a machine crash
 * is not in the model. {@link #recover} turns a dead client's journal into history lines: every ended
 * operation as it was, and every operation invoked but not recorded as ended as {@code unknown} (call
 * time from the journal, which is no later than the recorder's; no return), each under a client id of
 * its own, since a successor must not reuse the id of an unknown operation.
 */
final class ClientJournal implements WorkloadHost.Journal {
    private static final HexFormat HEX = HexFormat.of();

    private final HistoryRecorder history;
    private final long idBase;
    private FileChannel out;
    private long invoked;
    private int flushed;

    ClientJournal(HistoryRecorder history, long idBase) {
        this.history = history;
        this.idBase = idBase;
    }

    /**
     * The base of a client process's rack-wide operation ids: host * 10^9 + incarnation * 10^7 (a
     * recorder numbers its operations from 1, at most 10^6; a restarted client must not reuse the ids
     * of the process it replaces).
     */
    static long idBase(int host, int incarnation) {
        return host * 1_000_000_000L + incarnation * 10_000_000L;
    }

    static Path journalOf(Path historyPart) {
        return historyPart.resolveSibling(historyPart.getFileName() + ".journal");
    }

    /** Starts journaling a run whose history part is {@code part}; {@code from} operations exist already. */
    synchronized void begin(Path part, int from) {
        try {
            Files.createDirectories(part.toAbsolutePath().getParent());
            out = FileChannel.open(journalOf(part), StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    StandardOpenOption.TRUNCATE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException("opening the journal of " + part, e);
        }
        invoked = from;
        flushed = from;
        write("ids " + idBase + "\n");
    }

    @Override
    public synchronized void invoking(String kind, byte[] key, byte[] value) {
        invoked++;
        write("invoke " + invoked + " " + System.nanoTime() + " " + kind + " " + HEX.formatHex(key) + " "
                + (value == null ? "-" : HEX.formatHex(value)) + "\n");
    }

    /** Writes every operation that has ended since the last flush (in order; stops at the open one). */
    synchronized void flush() {
        if (out == null) {
            return;
        }
        StringBuilder sb = new StringBuilder();
        for (String line : history.endedLinesFrom(flushed)) {
            sb.append("op ").append(line);
            flushed++;
        }
        if (!sb.isEmpty()) {
            write(sb.toString());
        }
    }

    /** The run ended normally: its history part is written by the caller; the journal is finished. */
    synchronized void end() {
        flush();
        try {
            if (out != null) {
                out.close();
            }
        } catch (IOException e) {
            // the history part is what counts
        }
        out = null;
    }

    private void write(String text) {
        if (out == null) {
            return;
        }
        try {
            ByteBuffer b = ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8));
            while (b.hasRemaining()) {
                out.write(b);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("writing the client journal", e);
        }
    }

    /** What {@link #recover} made of a journal. */
    record Recovered(List<String> lines, int ended, int unknown) {}

    /**
     * History lines (ids made rack-wide, as the host writes them) from the journal of a client that died
     * during its run.
     */
    static Recovered recover(Path journal) throws IOException {
        List<String> lines = new ArrayList<>();
        Set<Long> ended = new TreeSet<>();
        List<String[]> invokes = new ArrayList<>();
        long base = -1;
        List<String> raw = new ArrayList<>();
        for (String line : Files.readAllLines(journal, StandardCharsets.UTF_8)) {
            if (line.startsWith("ids ")) {
                base = Long.parseLong(line.substring(4).strip());
            } else if (line.startsWith("op {") && line.endsWith("}")) {
                raw.add(line);
            } else if (line.startsWith("invoke ")) {
                String[] f = line.split(" ");
                if (f.length == 6) {
                    invokes.add(f);
                }
                // a shorter line was cut by the kill: the operation was not invoked yet
            }
        }
        if (base < 0) {
            throw new IOException(journal + " has no ids line");
        }
        for (String line : raw) {
            {
                String json = line.substring(3);
                int at = json.lastIndexOf(",\"id\":");
                long id = Long.parseLong(json.substring(at + 6, json.length() - 1));
                ended.add(id);
                lines.add(rackWideId(json, base));
            }
        }
        int unknown = 0;
        for (String[] f : invokes) {
            long n = Long.parseLong(f[1]);
            if (ended.contains(n)) {
                continue;
            }
            unknown++;
            StringBuilder sb = new StringBuilder("{\"client\":").append(unknownClientId(base, n))
                    .append(",\"op\":\"").append(f[3]).append("\",\"key\":\"").append(f[4]).append('"');
            if (f[3].equals("put")) {
                sb.append(",\"value\":\"").append(f[5]).append('"');
            }
            sb.append(",\"call\":").append(f[2]).append(",\"return\":null,\"result\":\"unknown\",\"id\":")
                    .append(base + n).append('}');
            lines.add(sb.toString());
        }
        return new Recovered(lines, ended.size(), unknown);
    }

    /**
     * The client id of operation {@code n}, left unknown by the crashed client process whose id base is
     * {@code base}: that id issues nothing after it (the history format), so each such operation needs one of
     * its own. 10^9 + host * 4 * 10^6 + (incarnation mod 40) * 10^5 + n mod 10^5: within the format's 32 bits
     * (host <= 254), above the ids the client library uses (host * 10^6 + ...) and the campaigns' wipes
     * (from 9 * 10^8). Two unknown operations of one incarnation collide only if their numbers are 10^5
     * apart: a journal's unknowns are the one or two operations in flight when the process was killed.
     */
    static long unknownClientId(long base, long n) {
        long host = base / 1_000_000_000L;
        long incarnation = (base % 1_000_000_000L) / 10_000_000L;
        return 1_000_000_000L + host * 4_000_000L + (incarnation % 40) * 100_000L + n % 100_000L;
    }

    /** A history line with its id made unique across the rack's clients and their incarnations: base + the process's id. */
    static String rackWideId(String line, long base) {
        int at = line.lastIndexOf(",\"id\":");
        long id = Long.parseLong(line.substring(at + 6, line.length() - 1));
        return line.substring(0, at) + ",\"id\":" + (base + id) + "}";
    }
}
