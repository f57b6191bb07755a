package dev.innet.p4sim;

import static dev.innet.p4sim.TestPrograms.hex;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.innet.p4sim.v1model.P4Switch;
import dev.innet.p4sim.v1model.SwitchConfig;
import dev.innet.switchapi.ControlException;
import dev.innet.switchapi.SwitchControl;
import java.io.ByteArrayOutputStream;
import java.math.BigInteger;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Random inputs against independent models of bmv2's rules, on both code generators (fixed seeds, so
 * a failure reproduces): varbit extraction (stf/varbit.p4) and parser value sets (stf/valueset.p4).
 */
class VarbitValueSetFuzzTest {
    private static final int ROUNDS = 400;

    private static P4Switch instance(String program, boolean specialize) {
        return P4Sim.compile(TestPrograms.stf(program)).instantiate(SwitchConfig.defaults().withSpecialization(specialize));
    }

    /**
     * The model of varbit.p4: length byte n (top bit: n's low 7 bits are bits, else n bytes); bmv2's
     * checks in order: not a multiple of 8 (err 2), too few bytes (err 3), more than 32 bits (err 1);
     * on success the csum16 of the option (its data as long as it was extracted) follows res.
     */
    private static int varbitError(byte[] in) {
        int n = in[0] & 0xFF;
        int bits = (n & 0x80) != 0 ? n & 0x7F : n * 8;
        return bits % 8 != 0 ? 2 : in.length - 1 < 2 + bits / 8 ? 3 : bits > 32 ? 1 : 0;
    }

    private static byte[] varbitModel(byte[] in) {
        int n = in[0] & 0xFF;
        int bits = (n & 0x80) != 0 ? n & 0x7F : n * 8;
        int rest = in.length - 1;
        int err = varbitError(in);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(n);
        if (err == 0) {
            int optLen = 2 + bits / 8;
            out.write(in, 1, optLen);                  // opt: kind, data, trailer
            out.write(in, 2, bits / 8);                // copy: the data
            out.write(1);                              // eq
            out.write(bits == 0 ? 1 : 0);              // eq_empty
            out.write(0);                              // err
            int sum = csum16(in, 1, optLen);           // sum: over kind, data, trailer
            out.write(sum >> 8);
            out.write(sum & 0xFF);
            out.write(in, 1 + optLen, rest - optLen);  // payload
        } else {
            out.write(0);
            out.write(0);
            out.write(err);
            out.write(in, 1, rest);
        }
        return out.toByteArray();
    }

    /** RFC 1071: the ones' complement of the ones' complement sum of 16-bit words, zero-padded. */
    private static int csum16(byte[] b, int off, int len) {
        long sum = 0;
        for (int i = 0; i < len; i += 2) {
            int hi = b[off + i] & 0xFF;
            int lo = i + 1 < len ? b[off + i + 1] & 0xFF : 0;
            sum += hi << 8 | lo;
        }
        while (sum >> 16 != 0) {
            sum = (sum & 0xFFFF) + (sum >> 16);
        }
        return (int) (~sum & 0xFFFF);
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void varbitExtractionFollowsBmv2sChecks(boolean specialize) {
        P4Switch sw = instance("varbit.p4", specialize);
        SplittableRandom rnd = new SplittableRandom(14);
        int[] seen = new int[4];
        for (int round = 0; round < ROUNDS; round++) {
            // lengths around the interesting edges: 0..6 bytes, bit counts, anything
            int n = switch (rnd.nextInt(3)) {
                case 0 -> rnd.nextInt(7);
                case 1 -> 0x80 | rnd.nextInt(48);
                default -> rnd.nextInt(256);
            };
            byte[] in = new byte[1 + rnd.nextInt(10)];
            rnd.nextBytes(in);
            in[0] = (byte) n;
            byte[] want = varbitModel(in);
            seen[varbitError(in)]++;
            List<P4Switch.OutPacket> out = sw.process(0, in);
            assertEquals(1, out.size(), "round " + round + " input " + hex(in));
            assertEquals(hex(want), hex(out.get(0).frame()), "round " + round + " input " + hex(in));
        }
        for (int err = 0; err < 4; err++) {
            assertTrue(seen[err] > 10, "outcome " + err + " seen " + seen[err] + " times");
        }
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void valueSetsMatchTheirMembers(boolean specialize) {
        P4Switch sw = instance("valueset.p4", specialize);
        SwitchControl c = sw.control();
        SplittableRandom rnd = new SplittableRandom(41);
        Set<Integer> types = new LinkedHashSet<>();
        Set<Integer> pairs = new LinkedHashSet<>();
        int[] pool = {0x0800, 0x86dd, 0x1234, 0x88b5, 0xffff, 0x0000};
        int full = 0;
        for (int round = 0; round < ROUNDS; round++) {
            int type = pool[rnd.nextInt(pool.length)];
            int pair = rnd.nextInt(4) << 8 | rnd.nextInt(4);
            switch (rnd.nextInt(6)) {
                case 0, 1 -> {
                    if (types.size() == 2 && !types.contains(type)) {
                        assertThrows(ControlException.class, () -> c.valueSetAdd("types", BigInteger.valueOf(type)));
                        full++;
                    } else {
                        c.valueSetAdd("types", BigInteger.valueOf(type));
                        types.add(type);
                    }
                }
                case 2 -> {
                    c.valueSetRemove("P.types", BigInteger.valueOf(type));
                    types.remove(type);
                }
                case 3 -> {
                    if (pairs.size() == 4 && !pairs.contains(pair)) {
                        assertThrows(ControlException.class, () -> c.valueSetAdd("pairs", BigInteger.valueOf(pair)));
                        full++;
                    } else {
                        c.valueSetAdd("pairs", BigInteger.valueOf(pair));
                        pairs.add(pair);
                    }
                }
                case 4 -> {
                    c.valueSetRemove("pairs", BigInteger.valueOf(pair));
                    pairs.remove(pair);
                }
                default -> {
                    if (rnd.nextInt(8) == 0) {
                        c.valueSetClear("pairs");
                        pairs.clear();
                    }
                }
            }
            assertEquals(Set.copyOf(types), Set.copyOf(c.valueSetRead("types").stream().map(BigInteger::intValue).toList()));
            // a packet: the constant case first, then the set, then the default
            int probeType = pool[rnd.nextInt(pool.length)];
            int probePair = rnd.nextInt(4) << 8 | rnd.nextInt(4);
            byte[] in = hex(String.format("%04x%04x", probeType, probePair));
            String got = hex(sw.process(0, in).get(0).frame());
            String want;
            if (probeType == 0x0800) {
                want = String.format("%04x01%04x", probeType, probePair);
            } else if (types.contains(probeType)) {
                want = String.format("%04x%04x%02x", probeType, probePair, pairs.contains(probePair) ? 3 : 2);
            } else {
                want = String.format("%04x00%04x", probeType, probePair);
            }
            assertEquals(want, got, "round " + round);
        }
        assertTrue(full > 0, "the full-set case was exercised");
    }
}
