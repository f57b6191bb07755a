package dev.innet.protocol;

import java.util.HexFormat;
import java.util.Locale;

/**
 * One key-value operation and its result as a line of text, the form a command socket carries them in
 * (a live rack's client hosts and the simulated rack service both answer it, so the YCSB binding talks
 * to either the same way; docs/ycsb.md):
 *
 * <pre>
 *   kv get KEY            kv put KEY VALUE            kv delete KEY
 *   -> kv OUTCOME FROM_SWITCH VALUE      (OUTCOME: OK, NOT_FOUND, FAILED, TIMED_OUT; FROM_SWITCH: 0|1)
 * </pre>
 *
 * KEY is the 16-byte wire key and VALUE the value, both in hex; an empty value is {@code -}. A line
 * that is not of this form is an {@link IllegalArgumentException} naming what is wrong.
 */
public final class KvCommandLine {
    /** The operations a line can ask for. */
    public enum Op { GET, PUT, DELETE }

    /** A parsed request: {@code value} is empty except for puts. */
    public record Request(Op op, byte[] key, byte[] value) {}

    private static final HexFormat HEX = HexFormat.of();
    private static final String EMPTY = "-";

    private KvCommandLine() {}

    public static String request(Op op, byte[] key, byte[] value) {
        if (key.length != 16) {
            throw new IllegalArgumentException("keys are 16 bytes, got " + key.length);
        }
        String line = "kv " + op.name().toLowerCase(Locale.ROOT) + " " + HEX.formatHex(key);
        return op == Op.PUT ? line + " " + hexOrEmpty(value) : line;
    }

    /** Whether {@code line} is meant for this codec (its first word is {@code kv}). */
    public static boolean isKvLine(String line) {
        return line.startsWith("kv ");
    }

    public static Request parseRequest(String line) {
        String[] w = line.strip().split(" ");
        if (w.length < 3 || !w[0].equals("kv")) {
            throw new IllegalArgumentException("usage: kv get|put|delete KEY [VALUE], got '" + abbreviate(line) + "'");
        }
        Op op;
        try {
            op = Op.valueOf(w[1].toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("unknown kv operation '" + w[1] + "' (get, put, delete)");
        }
        int words = op == Op.PUT ? 4 : 3;
        if (w.length != words) {
            throw new IllegalArgumentException("kv " + w[1] + " takes " + (words - 2) + " argument(s), got " + (w.length - 2));
        }
        byte[] key = hex("key", w[2]);
        if (key.length != 16) {
            throw new IllegalArgumentException("keys are 16 bytes (32 hex digits), got " + key.length + " bytes");
        }
        return new Request(op, key, op == Op.PUT ? hex("value", w[3]) : new byte[0]);
    }

    public static String reply(KvResult r) {
        return "kv " + r.outcome() + " " + (r.fromSwitch() ? 1 : 0) + " " + hexOrEmpty(r.value());
    }

    /** The result a reply line reports (seq, status and attempts are not carried: 0, -1, 1). */
    public static KvResult parseReply(String line) {
        String[] w = line.strip().split(" ");
        if (w.length != 4 || !w[0].equals("kv") || !(w[2].equals("0") || w[2].equals("1"))) {
            throw new IllegalArgumentException("not a kv reply: '" + abbreviate(line) + "'");
        }
        KvResult.Outcome outcome;
        try {
            outcome = KvResult.Outcome.valueOf(w[1]);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("unknown outcome '" + w[1] + "' in a kv reply");
        }
        return new KvResult(outcome, hex("value", w[3]), 0, w[2].equals("1"), -1, 1);
    }

    private static String hexOrEmpty(byte[] b) {
        return b == null || b.length == 0 ? EMPTY : HEX.formatHex(b);
    }

    private static byte[] hex(String what, String s) {
        if (s.equals(EMPTY)) {
            return new byte[0];
        }
        try {
            return HEX.parseHex(s);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(what + " is not hex: " + abbreviate(s));
        }
    }

    private static String abbreviate(String s) {
        return s.length() > 80 ? s.substring(0, 80) + "..." : s;
    }
}
