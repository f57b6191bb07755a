package dev.innet.p4sim;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Random programs of the issue-14 statements (compound assignment, nested slice targets, both kinds
 * of for loop with break/continue, header initialisers, header equality with an initialiser; some
 * constants wider than their type, which keep their low bits as in p4c), run
 * on both code generators
 * and compared with a model of P4's semantics written here: unsigned values of 8, 16 or 32 bits,
 * wraparound arithmetic, saturating |+| and |-|, shifts by at least the width give 0, loops as the
 * P4-16 spec describes them, initialisers reading every value before writing any.
 */
class LanguageFuzzTest {
    private static final int SEEDS = 100;
    private static final int[] WIDTHS = {8, 16, 32};
    private static final String[] OPS = {"+", "-", "*", "&", "|", "^", "<<", ">>", "|+|", "|-|", "/", "%"};

    /** One random program: its source, an input header and the header the model expects out. */
    private static final class Case {
        final SplittableRandom rnd;
        final int[] w;
        final long[] v;
        final StringBuilder body = new StringBuilder();
        final long[] input;

        Case(long seed) {
            rnd = new SplittableRandom(seed);
            int n = 3 + rnd.nextInt(4);
            w = new int[n];
            v = new long[n];
            for (int i = 0; i < n; i++) {
                w[i] = WIDTHS[rnd.nextInt(WIDTHS.length)];
                v[i] = rnd.nextLong() & mask(w[i]);
            }
            input = v.clone();
            int statements = 6 + rnd.nextInt(8);
            for (int s = 0; s < statements; s++) {
                statement();
            }
        }

        static long mask(int width) {
            return width == 64 ? -1L : (1L << width) - 1;
        }

        long literal(int width) {
            return rnd.nextInt(4) == 0 ? rnd.nextInt(4) : rnd.nextLong() & mask(width);
        }

        /** A literal, typed or left for the target's width to type, or another field of the same width. */
        String operand(int k, long[] valueOut) {
            int same = -1;
            for (int j = 0; j < w.length; j++) {
                if (j != k && w[j] == w[k] && rnd.nextBoolean()) {
                    same = j;
                }
            }
            if (same >= 0) {
                valueOut[0] = v[same];
                return "h.h.f" + same;
            }
            long x = literal(w[k]);
            valueOut[0] = x;
            String digits = Long.toUnsignedString(x);
            if (rnd.nextInt(8) == 0) {
                // a constant too wide for its type: p4c warns and keeps the low w bits, which are x
                digits = java.math.BigInteger.valueOf(1 + rnd.nextInt(3)).shiftLeft(w[k])
                        .add(new java.math.BigInteger(Long.toUnsignedString(x))).toString();
            }
            return rnd.nextBoolean() ? w[k] + "w" + digits : digits;
        }

        static long apply(String op, long a, long b, int width) {
            long m = mask(width);
            return switch (op) {
                case "+" -> (a + b) & m;
                case "-" -> (a - b) & m;
                case "*" -> (a * b) & m;
                case "&" -> a & b;
                case "|" -> a | b;
                case "^" -> a ^ b;
                case "<<" -> b >= width ? 0 : (a << b) & m;
                case ">>" -> b >= width ? 0 : a >>> b;
                case "|+|" -> Math.min(a + b, m);
                case "|-|" -> Math.max(a - b, 0);
                case "/" -> Long.divideUnsigned(a, b);
                case "%" -> Long.remainderUnsigned(a, b);
                default -> throw new IllegalArgumentException(op);
            };
        }

        /** {@code h.h.fK op= rhs} with a right-hand side the operator accepts (constant shifts and divisors). */
        void compound(int k, String indent) {
            String op = OPS[rnd.nextInt(OPS.length)];
            long[] b = new long[1];
            String rhs;
            if (op.equals("<<") || op.equals(">>")) {
                b[0] = rnd.nextInt(w[k] + 2);
                rhs = Long.toString(b[0]);
            } else if (op.equals("/") || op.equals("%")) {
                b[0] = 1 + rnd.nextInt(9);
                rhs = w[k] + "w" + b[0];
            } else {
                rhs = operand(k, b);
            }
            body.append(indent).append("h.h.f").append(k).append(' ').append(op).append("= ").append(rhs).append(";\n");
            v[k] = apply(op, v[k], b[0], w[k]);
        }

        void statement() {
            int k = rnd.nextInt(w.length);
            switch (rnd.nextInt(6)) {
                case 0 -> compound(k, "        ");
                case 1 -> nestedSlice(k);
                case 2 -> threeClauseLoop(k);
                case 3 -> rangeLoop(k);
                case 4 -> equality(k);
                default -> initialiser();
            }
        }

        void nestedSlice(int k) {
            int lo1 = rnd.nextInt(w[k]);
            int hi1 = lo1 + rnd.nextInt(w[k] - lo1);
            int w1 = hi1 - lo1 + 1;
            int lo2 = rnd.nextInt(w1);
            int hi2 = lo2 + rnd.nextInt(w1 - lo2);
            int w2 = hi2 - lo2 + 1;
            long x = rnd.nextLong() & mask(w2);
            body.append("        h.h.f").append(k).append('[').append(hi1).append(':').append(lo1).append("][")
                    .append(hi2).append(':').append(lo2).append("] = ").append(w2).append("w").append(x).append(";\n");
            int lo = lo1 + lo2;
            long field = mask(w2) << lo;
            v[k] = (v[k] & ~field) | (x << lo);
        }

        /** for (bit<8> i = s; i < e; i = i + 1) { if (i == c) { continue|break; } h.h.fK op= (bit<W>) i or a literal; } */
        void threeClauseLoop(int k) {
            int s = rnd.nextInt(5);
            int e = rnd.nextInt(12);
            int c = rnd.nextInt(12);
            boolean brk = rnd.nextBoolean();
            String op = new String[] {"+", "^", "|+|", "-"}[rnd.nextInt(4)];
            boolean useI = rnd.nextBoolean();
            long lit = literal(w[k]);
            body.append("        for (bit<8> i = ").append(s).append("; i < ").append(e).append("; i = i + 1) {\n")
                    .append("            if (i == ").append(c).append(") { ").append(brk ? "break" : "continue").append("; }\n")
                    .append("            h.h.f").append(k).append(' ').append(op).append("= ")
                    .append(useI ? "(bit<" + w[k] + ">) i" : w[k] + "w" + Long.toUnsignedString(lit)).append(";\n")
                    .append("        }\n");
            for (int i = s; i < e; i++) {
                if (i == c) {
                    if (brk) {
                        break;
                    }
                    continue;
                }
                v[k] = apply(op, v[k], useI ? i : lit, w[k]);
            }
        }

        /** for (bit<8> i in a .. b) { h.h.fK op= (bit<W>) i; } with the bounds read from a field once. */
        void rangeLoop(int k) {
            int a = rnd.nextInt(8);
            int b = rnd.nextInt(12);
            String op = new String[] {"+", "^", "-"}[rnd.nextInt(3)];
            body.append("        for (bit<8> i in ").append(a).append(" .. ").append(b).append(") {\n")
                    .append("            h.h.f").append(k).append(' ').append(op).append("= (bit<").append(w[k]).append(">) i;\n")
                    .append("        }\n");
            for (int i = a; i <= b; i++) {
                v[k] = apply(op, v[k], i, w[k]);
            }
        }

        /**
         * if (h.h == {...}) or != : the initialiser repeats the current field values, except (half
         * the time) one that differs; the branch flips the low bit of field k.
         */
        void equality(int k) {
            int changed = rnd.nextBoolean() ? rnd.nextInt(w.length) : -1;
            List<String> parts = new ArrayList<>();
            for (int j = 0; j < w.length; j++) {
                long x = j == changed ? (v[j] ^ (1L + rnd.nextLong(mask(w[j])))) & mask(w[j]) : v[j];
                if (j == changed && x == v[j]) {
                    x = v[j] ^ 1;
                }
                parts.add(w[j] + "w" + Long.toUnsignedString(x));
            }
            boolean eq = rnd.nextBoolean();
            body.append("        if (h.h ").append(eq ? "==" : "!=").append(" { ").append(String.join(", ", parts))
                    .append(" }) {\n            h.h.f").append(k).append(" ^= 1;\n        }\n");
            boolean equal = changed < 0;
            if (equal == eq) {
                v[k] ^= 1;
            }
        }

        /** h.h = {...} in field order or by name in a shuffled order; values read before any is written. */
        void initialiser() {
            boolean named = rnd.nextBoolean();
            long[] next = new long[w.length];
            List<String> parts = new ArrayList<>();
            for (int k = 0; k < w.length; k++) {
                long[] b = new long[1];
                String e = operand(k, b);
                next[k] = b[0];
                parts.add(named ? "f" + k + " = " + e : e);
            }
            if (named) {
                Collections.shuffle(parts, new java.util.Random(rnd.nextLong()));
            }
            body.append("        h.h = { ").append(String.join(", ", parts)).append(" };\n");
            System.arraycopy(next, 0, v, 0, w.length);
        }

        String program() {
            StringBuilder fields = new StringBuilder();
            for (int k = 0; k < w.length; k++) {
                fields.append("    bit<").append(w[k]).append("> f").append(k).append(";\n");
            }
            return TestPrograms.oneHeaderProgram(fields.toString(), "h_t h;", body.toString(), "pkt.emit(h.h);");
        }

        static String hex(int[] widths, long[] values) {
            StringBuilder sb = new StringBuilder();
            for (int k = 0; k < widths.length; k++) {
                sb.append(String.format("%0" + widths[k] / 4 + "x", values[k]));
            }
            return sb.toString();
        }
    }

    @Test
    void randomProgramsMatchTheModelOnBothCodeGenerators() {
        int checked = 0;
        for (long seed = 1; seed <= SEEDS; seed++) {
            Case c = new Case(seed);
            String source = c.program();
            byte[] in = HexFormat.of().parseHex(Case.hex(c.w, c.input));
            String want = Case.hex(c.w, c.v);
            checked += TestPrograms.assertOneOutputOnBothGenerators("fuzz" + seed + ".p4", source, in, want, "seed " + seed);
        }
        assertEquals(2 * SEEDS, checked);
    }
}
