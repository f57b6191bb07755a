package dev.innet.p4sim;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.innet.p4sim.runtime.BitIO;
import dev.innet.p4sim.runtime.Wide;
import java.math.BigInteger;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Field reads and writes at every width and bit offset agree with a bit-by-bit reference. */
class BitIOTest {
    private static BigInteger referenceRead(byte[] b, int bitOff, int width) {
        BigInteger v = BigInteger.ZERO;
        for (int i = 0; i < width; i++) {
            int bit = bitOff + i;
            int x = (b[bit >>> 3] >>> (7 - (bit & 7))) & 1;
            v = v.shiftLeft(1).or(BigInteger.valueOf(x));
        }
        return v;
    }

    private static BigInteger words(long[] s, int off, int width) {
        BigInteger v = BigInteger.ZERO;
        for (int k = Wide.words(width) - 1; k >= 0; k--) {
            v = v.shiftLeft(64).or(new BigInteger(Long.toUnsignedString(s[off + k])));
        }
        return v;
    }

    @Test
    void readAndWriteAgreeWithReference() {
        SplittableRandom rnd = new SplittableRandom(3);
        for (int trial = 0; trial < 20000; trial++) {
            int width = 1 + rnd.nextInt(200);
            int bitOff = rnd.nextInt(24);
            byte[] buf = new byte[40];
            rnd.nextBytes(buf);
            byte[] before = buf.clone();
            long[] s = new long[8];
            BitIO.readField(buf, bitOff, width, s, 1);
            assertEquals(referenceRead(buf, bitOff, width), words(s, 1, width), "read w=" + width + " off=" + bitOff);
            // write a new random value; only the field's bits may change
            long[] v = new long[8];
            for (int k = 0; k < 8; k++) {
                v[k] = rnd.nextLong();
            }
            Wide.maskTop(v, 2, width);
            BitIO.writeField(buf, bitOff, width, v, 2);
            assertEquals(words(v, 2, width), referenceRead(buf, bitOff, width), "write w=" + width + " off=" + bitOff);
            byte[] restored = buf.clone();
            BitIO.writeField(restored, bitOff, width, s, 1);
            assertArrayEquals(before, restored, "other bits untouched w=" + width + " off=" + bitOff);
        }
    }
}
