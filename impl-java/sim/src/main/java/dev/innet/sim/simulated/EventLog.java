package dev.innet.sim.simulated;

import dev.innet.wire.RackAddressing;
import dev.innet.wire.UdpFrame;
import dev.innet.wire.WireException;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayDeque;
import java.util.HexFormat;

/**
 * The record of a run: every event feeds a running SHA-256 over a canonical binary encoding (kind,
 * simulated time, subject, detail, frame bytes), so two runs are identical exactly when their hashes
 * are. A text line per event goes to an optional trace and to a small ring of recent lines that failure
 * messages quote.
 */
public final class EventLog {
    /** How many recent lines a failure message quotes. */
    public static final int RECENT_LINES = 40;

    private final MessageDigest digest;
    private final Appendable trace;
    /** Recent events, formatted only if a failure quotes them (formatting every event would dominate big runs). */
    private final ArrayDeque<Recent> recent = new ArrayDeque<>(RECENT_LINES);
    private long count;
    private final byte[] scratch = new byte[8];

    EventLog(Appendable trace) {
        try {
            this.digest = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK provides SHA-256", e);
        }
        this.trace = trace;
    }

    void record(long time, EventKind kind, String subject, String detail, byte[] frame) {
        count++;
        hashLong(kind.ordinal());
        hashLong(time);
        hashString(subject);
        hashString(detail);
        if (frame == null) {
            hashLong(-1);
        } else {
            hashLong(frame.length);
            digest.update(frame);
        }
        if (recent.size() == RECENT_LINES) {
            recent.removeFirst();
        }
        // The frame is copied: its receiver owns the array and may change it.
        recent.addLast(new Recent(time, kind, subject, detail, frame == null ? null : frame.clone()));
        if (trace != null) {
            try {
                trace.append(formatLine(time, kind, subject, detail, frame)).append('\n');
            } catch (IOException e) {
                throw new UncheckedIOException("writing the simulation trace", e);
            }
        }
    }

    /** Number of events recorded so far. */
    public long count() {
        return count;
    }

    /** The hash of everything recorded so far, as hex. Does not disturb the running hash. */
    public String hash() {
        try {
            MessageDigest copy = (MessageDigest) digest.clone();
            return HexFormat.of().formatHex(copy.digest());
        } catch (CloneNotSupportedException e) {
            throw new IllegalStateException("SHA-256 digests are cloneable in every JDK", e);
        }
    }

    /** The last {@link #RECENT_LINES} lines, oldest first. */
    public String recentLines() {
        StringBuilder sb = new StringBuilder();
        for (Recent r : recent) {
            if (!sb.isEmpty()) {
                sb.append('\n');
            }
            sb.append(formatLine(r.time, r.kind, r.subject, r.detail, r.frame));
        }
        return sb.toString();
    }

    private record Recent(long time, EventKind kind, String subject, String detail, byte[] frame) {
    }

    private void hashLong(long v) {
        for (int i = 0; i < 8; i++) {
            scratch[i] = (byte) (v >>> (56 - 8 * i));
        }
        digest.update(scratch);
    }

    private void hashString(String s) {
        byte[] bytes = (s == null ? "" : s).getBytes(StandardCharsets.UTF_8);
        hashLong(bytes.length);
        digest.update(bytes);
    }

    static String formatTime(long nanos) {
        return String.format("%d.%09d", nanos / 1_000_000_000L, nanos % 1_000_000_000L);
    }

    private static String formatLine(long time, EventKind kind, String subject, String detail, byte[] frame) {
        StringBuilder sb = new StringBuilder(96);
        sb.append(formatTime(time)).append(' ').append(kind).append(' ').append(subject);
        if (detail != null && !detail.isEmpty()) {
            sb.append(' ').append(detail);
        }
        if (frame != null) {
            sb.append(" [").append(summarize(frame)).append(']');
        }
        return sb.toString();
    }

    /** A short human-readable view of a frame; frames that do not decode are shown as such, not rejected. */
    static String summarize(byte[] frame) {
        try {
            UdpFrame f = UdpFrame.decode(frame);
            return RackAddressing.ipToString(f.srcIp()) + ":" + f.srcPort() + ">" + RackAddressing.ipToString(f.dstIp())
                    + ":" + f.dstPort() + " " + f.payload().length + "B";
        } catch (WireException e) {
            return frame.length + "B undecodable " + e.error();
        }
    }
}
