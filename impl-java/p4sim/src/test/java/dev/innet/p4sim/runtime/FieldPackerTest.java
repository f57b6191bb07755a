package dev.innet.p4sim.runtime;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The generated straight-line packers against the table-driven loop (which uses BitIO, tested on its
 * own): random field lists of every width class (aligned 8/16/32/64, other whole bytes, unaligned,
 * wide aligned and wide unaligned) at random slots, both directions, at a non-zero byte offset.
 */
class FieldPackerTest {
    @Test
    void generatedCodeAgreesWithTheLoopOnRandomLayouts() {
        SplittableRandom r = new SplittableRandom(42);
        int[] widthChoices = {1, 3, 4, 7, 8, 9, 13, 16, 24, 32, 48, 63, 64, 65, 96, 128, 130, 256};
        for (int layout = 0; layout < 300; layout++) {
            int n = 1 + r.nextInt(12);
            int[] widths = new int[n];
            int[] offsets = new int[n];
            int[] slots = new int[n];
            int bit = 0;
            int slot = 1 + r.nextInt(3);
            for (int i = 0; i < n; i++) {
                widths[i] = widthChoices[r.nextInt(widthChoices.length)];
                offsets[i] = bit;
                slots[i] = slot;
                bit += widths[i];
                slot += Wide.words(widths[i]) + r.nextInt(2);
            }
            int bytes = (bit + 7) / 8;
            FieldPacker fast = FieldPacker.of(offsets, widths, slots);
            FieldPacker loop = FieldPacker.table(offsets, widths, slots);
            int at = r.nextInt(5);
            int base = r.nextInt(4);

            byte[] packet = new byte[at + bytes + 3];
            r.nextBytes(packet);
            long[] viaFast = new long[base + slot + 2];
            long[] viaLoop = new long[base + slot + 2];
            fast.unpack(packet, at, viaFast, base);
            loop.unpack(packet, at, viaLoop, base);
            assertArrayEquals(viaLoop, viaFast, "unpack, layout " + layout + " widths " + List.of(box(widths)));

            long[] s = new long[base + slot + 2];
            for (int i = 0; i < n; i++) {
                for (int k = 0; k < Wide.words(widths[i]); k++) {
                    s[base + slots[i] + k] = r.nextLong();
                }
                Wide.maskTop(s, base + slots[i], widths[i]);
            }
            byte[] outFast = packet.clone();
            byte[] outLoop = packet.clone();
            fast.pack(s, base, outFast, at);
            loop.pack(s, base, outLoop, at);
            assertArrayEquals(outLoop, outFast, "pack, layout " + layout + " widths " + List.of(box(widths)));
            long[] back = new long[s.length];
            fast.unpack(outFast, at, back, base);
            for (int i = 0; i < n; i++) {
                for (int k = 0; k < Wide.words(widths[i]); k++) {
                    assertEquals(s[base + slots[i] + k], back[base + slots[i] + k], "round trip of field " + i);
                }
            }
        }
    }

    @Test
    void manyFieldsUseTheLoop() {
        int n = FieldPacker.MAX_GENERATED_FIELDS + 1;
        int[] widths = new int[n];
        int[] offsets = new int[n];
        int[] slots = new int[n];
        for (int i = 0; i < n; i++) {
            widths[i] = 8;
            offsets[i] = 8 * i;
            slots[i] = i;
        }
        FieldPacker p = FieldPacker.of(offsets, widths, slots);
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) i;
        }
        long[] s = new long[n];
        p.unpack(b, 0, s, 0);
        assertEquals(200, s[200]);
        byte[] out = new byte[n];
        p.pack(s, 0, out, 0);
        assertArrayEquals(b, out);
    }

    private static Integer[] box(int[] a) {
        List<Integer> l = new ArrayList<>();
        for (int x : a) {
            l.add(x);
        }
        return l.toArray(new Integer[0]);
    }
}
