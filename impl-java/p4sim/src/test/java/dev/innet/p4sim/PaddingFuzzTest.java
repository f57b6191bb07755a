package dev.innet.p4sim;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.util.HexFormat;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Random headers that are not a whole number of bytes (docs/p4sim.md, the padding p4c's bmv2 back end
 * adds), on both code generators, against a model written here: the header occupies the next whole
 * number of bytes; its fields are read most significant bit first and the padding is the low bits of
 * the last byte; one field is incremented (wrapping at its width); the header is copied; both are
 * emitted with the padding bits as they came in, then the payload. A target that wrote the padding as
 * 0, or rounded the header down, would differ on the packets whose padding bits are not all 0.
 */
class PaddingFuzzTest {
    private static final int SEEDS = 60;

    @Test
    void paddedHeadersRoundTripOnBothCodeGenerators() {
        int nonZeroPadding = 0;
        for (long seed = 1; seed <= SEEDS; seed++) {
            SplittableRandom rnd = new SplittableRandom(seed);
            int n = 1 + rnd.nextInt(4);
            int[] w = new int[n];
            int total = 0;
            for (int i = 0; i < n; i++) {
                w[i] = 1 + rnd.nextInt(24);
                total += w[i];
            }
            if (total % 8 == 0) {
                w[n - 1]++;
                total++;
            }
            int bytes = (total + 7) / 8;
            int pad = bytes * 8 - total;
            int k = rnd.nextInt(n);
            StringBuilder fields = new StringBuilder();
            for (int i = 0; i < n; i++) {
                fields.append("    bit<").append(w[i]).append("> f").append(i).append(";\n");
            }
            String bump = "        h.h.f" + k + " = h.h.f" + k + " + 1;\n        h.c = h.h;\n";
            String source = TestPrograms.oneHeaderProgram(fields.toString(), "h_t h; h_t c;", bump,
                    "pkt.emit(h.h); pkt.emit(h.c);");

            byte[] in = new byte[bytes + 2];
            for (int i = 0; i < in.length; i++) {
                in[i] = (byte) rnd.nextInt(256);
            }
            // the model: split the header's bits into fields and padding, bump field k, put them back
            BigInteger header = new BigInteger(1, java.util.Arrays.copyOf(in, bytes));
            BigInteger[] values = new BigInteger[n];
            int shift = bytes * 8;
            for (int i = 0; i < n; i++) {
                shift -= w[i];
                values[i] = header.shiftRight(shift).and(BigInteger.ONE.shiftLeft(w[i]).subtract(BigInteger.ONE));
            }
            BigInteger padding = header.and(BigInteger.ONE.shiftLeft(pad).subtract(BigInteger.ONE));
            if (padding.signum() != 0) {
                nonZeroPadding++;
            }
            values[k] = values[k].add(BigInteger.ONE).and(BigInteger.ONE.shiftLeft(w[k]).subtract(BigInteger.ONE));
            BigInteger out = BigInteger.ZERO;
            for (int i = 0; i < n; i++) {
                out = out.shiftLeft(w[i]).or(values[i]);
            }
            out = out.shiftLeft(pad).or(padding);
            String headerHex = String.format("%0" + (2 * bytes) + "x", out);
            String want = headerHex + headerHex + HexFormat.of().formatHex(in, bytes, in.length);

            TestPrograms.assertOneOutputOnBothGenerators("pad" + seed + ".p4", source, in, want, "seed " + seed);
        }
        // the padding bits must often be non-zero, or writing them as 0 would go unnoticed
        assertTrue(nonZeroPadding > SEEDS / 2, "only " + nonZeroPadding + " cases with non-zero padding");
    }
}
