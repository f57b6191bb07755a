package dev.innet.p4sim.control;

import dev.innet.switchapi.ControlException;
import dev.innet.switchapi.Match;
import dev.innet.p4sim.runtime.ActionRuntime;
import dev.innet.p4sim.runtime.TableRuntime;
import dev.innet.p4sim.runtime.TableRuntime.MatchKind;
import dev.innet.p4sim.runtime.Wide;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;

/**
 * Validates control-plane match specifications and action data against a table and encodes them
 * as the word arrays {@link TableRuntime} matches on. All validation happens before anything is
 * changed, so a rejected request leaves the table as it was.
 */
public final class EntryEncoder {
    private EntryEncoder() { }

    /** Encoded match: value and mask words (range keys: lo in value, hi in mask) and the lpm prefix length. */
    public record Encoded(long[] value, long[] mask, int prefixLength) { }

    public static Encoded encodeMatch(TableRuntime t, List<Match> match, int priority) {
        if (match.size() != t.kinds.length) {
            throw new ControlException("table " + t.name + " has " + t.kinds.length + " key field(s), got " + match.size());
        }
        if (t.usesPriority && priority < 1) {
            throw new ControlException("table " + t.name + " has ternary/range/optional keys: entries need a priority >= 1");
        }
        if (!t.usesPriority && priority != 0) {
            throw new ControlException("table " + t.name + " has no ternary/range/optional keys: priority must not be given");
        }
        long[] value = new long[t.keyWords];
        long[] mask = new long[t.keyWords];
        int prefix = 0;
        for (int i = 0; i < match.size(); i++) {
            MatchKind kind = t.kinds[i];
            int w = t.widths[i];
            int off = t.wordOffsets[i];
            String field = "key field '" + t.keyNames[i] + "' (" + kind.name().toLowerCase() + ", " + w + " bits)";
            BigInteger full = BigInteger.ONE.shiftLeft(w).subtract(BigInteger.ONE);
            BigInteger v;
            BigInteger m;
            switch (match.get(i)) {
                case Match.Exact e -> {
                    v = fit(e.value(), w, field);
                    m = kind == MatchKind.RANGE ? v : full;
                    if (kind == MatchKind.LPM) {
                        prefix += w;
                    }
                }
                case Match.Ternary tm -> {
                    if (kind != MatchKind.TERNARY) {
                        throw new ControlException("ternary match given for " + field);
                    }
                    v = fit(tm.value(), w, field);
                    m = fit(tm.mask(), w, field);
                    if (!v.and(m.not()).equals(BigInteger.ZERO)) {
                        throw new ControlException("value has bits outside the mask for " + field);
                    }
                }
                case Match.Lpm lpm -> {
                    if (kind != MatchKind.LPM) {
                        throw new ControlException("lpm match given for " + field);
                    }
                    if (lpm.prefixLength() < 0 || lpm.prefixLength() > w) {
                        throw new ControlException("prefix length " + lpm.prefixLength() + " out of range for " + field);
                    }
                    v = fit(lpm.value(), w, field);
                    m = full.shiftRight(w - lpm.prefixLength()).shiftLeft(w - lpm.prefixLength());
                    if (!v.and(m.not()).equals(BigInteger.ZERO)) {
                        throw new ControlException("value has bits beyond the /" + lpm.prefixLength() + " prefix for " + field);
                    }
                    prefix += lpm.prefixLength();
                }
                case Match.Range r -> {
                    if (kind != MatchKind.RANGE) {
                        throw new ControlException("range match given for " + field);
                    }
                    v = fit(r.lo(), w, field);
                    m = fit(r.hi(), w, field);
                    if (v.compareTo(m) > 0) {
                        throw new ControlException("range low end above high end for " + field);
                    }
                }
                case Match.Wildcard wc -> {
                    if (kind == MatchKind.EXACT) {
                        throw new ControlException("wildcard given for exact " + field);
                    }
                    v = BigInteger.ZERO;
                    m = kind == MatchKind.RANGE ? full : BigInteger.ZERO;
                }
            }
            put(value, off, w, v);
            put(mask, off, w, m);
        }
        return new Encoded(value, mask, prefix);
    }

    public static ActionRuntime action(TableRuntime t, String name) {
        ActionRuntime a = t.action(name);
        if (a == null) {
            throw new ControlException("action '" + name + "' is not an action of table " + t.name);
        }
        return a;
    }

    public static long[] encodeArgs(ActionRuntime a, List<BigInteger> args) {
        if (args.size() != a.paramWidths.length) {
            throw new ControlException("action " + a.name + " takes " + a.paramWidths.length + " argument(s), got " + args.size());
        }
        long[] out = new long[a.dataWords];
        int off = 0;
        for (int i = 0; i < args.size(); i++) {
            int w = a.paramWidths[i];
            BigInteger v = fit(args.get(i), w, "argument '" + a.paramNames[i] + "' of action " + a.name + " (" + w + " bits)");
            put(out, off, w, v);
            off += Wide.words(w);
        }
        return out;
    }

    public static List<BigInteger> decodeArgs(ActionRuntime a, long[] data) {
        List<BigInteger> out = new ArrayList<>();
        int off = 0;
        for (int w : a.paramWidths) {
            out.add(get(data, off, w));
            off += Wide.words(w);
        }
        return out;
    }

    /** Turns an installed entry's words back into a match list. */
    public static List<Match> decodeMatch(TableRuntime t, long[] value, long[] mask) {
        List<Match> out = new ArrayList<>();
        for (int i = 0; i < t.kinds.length; i++) {
            int w = t.widths[i];
            int off = t.wordOffsets[i];
            BigInteger v = get(value, off, w);
            BigInteger m = get(mask, off, w);
            BigInteger full = BigInteger.ONE.shiftLeft(w).subtract(BigInteger.ONE);
            out.add(switch (t.kinds[i]) {
                case EXACT -> new Match.Exact(v);
                case RANGE -> new Match.Range(v, m);
                case LPM -> new Match.Lpm(v, w - m.xor(full).bitLength());
                case TERNARY -> new Match.Ternary(v, m);
                case OPTIONAL -> m.signum() == 0 ? new Match.Wildcard() : new Match.Exact(v);
            });
        }
        return out;
    }

    static BigInteger fit(BigInteger v, int width, String what) {
        if (v.signum() < 0 || v.bitLength() > width) {
            throw new ControlException("value " + v + " does not fit " + what);
        }
        return v;
    }

    static void put(long[] words, int off, int width, BigInteger v) {
        for (int k = 0; k < Wide.words(width); k++) {
            words[off + k] = v.shiftRight(64 * k).longValue();
        }
    }

    static BigInteger get(long[] words, int off, int width) {
        BigInteger v = BigInteger.ZERO;
        for (int k = Wide.words(width) - 1; k >= 0; k--) {
            v = v.shiftLeft(64).or(new BigInteger(Long.toUnsignedString(words[off + k])));
        }
        return v.and(BigInteger.ONE.shiftLeft(width).subtract(BigInteger.ONE));
    }
}
