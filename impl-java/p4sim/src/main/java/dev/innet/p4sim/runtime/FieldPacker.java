package dev.innet.p4sim.runtime;

import static java.lang.constant.ConstantDescs.CD_int;
import static java.lang.constant.ConstantDescs.CD_long;
import static java.lang.constant.ConstantDescs.CD_void;

import java.lang.classfile.ClassFile;
import java.lang.classfile.CodeBuilder;
import java.lang.constant.ClassDesc;
import java.lang.constant.MethodTypeDesc;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Moves a fixed list of fields (bit offset, width, slot) between packet bytes and frame slots, in both
 * directions. {@link #of} generates a class whose two methods are straight-line code for exactly those
 * fields: every offset and width is a constant, byte-aligned 8/16/32/64-bit fields are single loads and
 * stores, and nothing loops over a field table at run time. A header's extract and emit and a checksum's
 * serialisation use one each; this was a third of the time per packet when it was a loop (docs/p4sim.md).
 */
public abstract class FieldPacker {
    /** Fields beyond this count are packed by the table-driven fallback (a generated method must stay small enough to JIT). */
    static final int MAX_GENERATED_FIELDS = 200;
    private static final AtomicLong NAMES = new AtomicLong();

    /** Writes the fields from {@code s[base + slot]} into {@code b}, the field list starting at byte {@code at}. */
    public abstract void pack(long[] s, int base, byte[] b, int at);

    /** Reads the fields from {@code b}, the field list starting at byte {@code at}, into {@code s[base + slot]}. */
    public abstract void unpack(byte[] b, int at, long[] s, int base);

    /** Straight-line code for these fields ({@code bitOffsets} relative to the start, {@code slots} relative to base). */
    public static FieldPacker of(int[] bitOffsets, int[] widths, int[] slots) {
        if (bitOffsets.length > MAX_GENERATED_FIELDS) {
            return new Table(bitOffsets, widths, slots);
        }
        byte[] bytes = generate(bitOffsets, widths, slots);
        try {
            MethodHandles.Lookup hidden = MethodHandles.lookup().defineHiddenClass(bytes, true);
            return (FieldPacker) hidden.findConstructor(hidden.lookupClass(), java.lang.invoke.MethodType.methodType(void.class))
                    .invoke();
        } catch (Throwable t) {
            throw new IllegalStateException("cannot define a field packer", t);
        }
    }

    /** The same behaviour as a loop over the field table (the reference the generated code is tested against). */
    public static FieldPacker table(int[] bitOffsets, int[] widths, int[] slots) {
        return new Table(bitOffsets, widths, slots);
    }

    private static final class Table extends FieldPacker {
        private final int[] bitOffsets;
        private final int[] widths;
        private final int[] slots;

        Table(int[] bitOffsets, int[] widths, int[] slots) {
            this.bitOffsets = bitOffsets.clone();
            this.widths = widths.clone();
            this.slots = slots.clone();
        }

        @Override
        public void pack(long[] s, int base, byte[] b, int at) {
            for (int i = 0; i < widths.length; i++) {
                BitIO.writeField(b, at * 8 + bitOffsets[i], widths[i], s, base + slots[i]);
            }
        }

        @Override
        public void unpack(byte[] b, int at, long[] s, int base) {
            for (int i = 0; i < widths.length; i++) {
                BitIO.readField(b, at * 8 + bitOffsets[i], widths[i], s, base + slots[i]);
            }
        }
    }

    // ------------------------------------------------------------------ code generation

    private static final ClassDesc SELF = ClassDesc.of(FieldPacker.class.getName());
    private static final ClassDesc BIT_IO = ClassDesc.of(BitIO.class.getName());
    private static final ClassDesc BYTE_ARRAY = ClassDesc.ofDescriptor("[B");
    private static final ClassDesc LONG_ARRAY = ClassDesc.ofDescriptor("[J");
    private static final MethodTypeDesc PACK = MethodTypeDesc.of(CD_void, LONG_ARRAY, CD_int, BYTE_ARRAY, CD_int);
    private static final MethodTypeDesc UNPACK = MethodTypeDesc.of(CD_void, BYTE_ARRAY, CD_int, LONG_ARRAY, CD_int);
    private static final MethodTypeDesc GET = MethodTypeDesc.of(CD_long, BYTE_ARRAY, CD_int);
    private static final MethodTypeDesc GET_N = MethodTypeDesc.of(CD_long, BYTE_ARRAY, CD_int, CD_int);
    private static final MethodTypeDesc GET_BITS = MethodTypeDesc.of(CD_long, BYTE_ARRAY, CD_int, CD_int, CD_int);
    private static final MethodTypeDesc PUT = MethodTypeDesc.of(CD_void, BYTE_ARRAY, CD_int, CD_long);
    private static final MethodTypeDesc PUT_N = MethodTypeDesc.of(CD_void, BYTE_ARRAY, CD_int, CD_int, CD_long);
    private static final MethodTypeDesc PUT_BITS = MethodTypeDesc.of(CD_void, BYTE_ARRAY, CD_int, CD_int, CD_int, CD_long);
    private static final MethodTypeDesc WIDE = MethodTypeDesc.of(CD_void, BYTE_ARRAY, CD_int, CD_int, LONG_ARRAY, CD_int);

    private static byte[] generate(int[] bitOffsets, int[] widths, int[] slots) {
        ClassDesc name = ClassDesc.of(FieldPacker.class.getPackageName() + ".FieldPacker$" + NAMES.incrementAndGet());
        return ClassFile.of().build(name, cb -> {
            cb.withFlags(ClassFile.ACC_PUBLIC | ClassFile.ACC_FINAL | ClassFile.ACC_SYNTHETIC);
            cb.withSuperclass(SELF);
            cb.withMethodBody("<init>", MethodTypeDesc.of(CD_void), ClassFile.ACC_PUBLIC,
                    c -> c.aload(0).invokespecial(SELF, "<init>", MethodTypeDesc.of(CD_void)).return_());
            // pack(long[] s, int base, byte[] b, int at): locals 1 s, 2 base, 3 b, 4 at
            cb.withMethodBody("pack", PACK, ClassFile.ACC_PUBLIC, c -> {
                for (int i = 0; i < widths.length; i++) {
                    packField(c, bitOffsets[i], widths[i], slots[i]);
                }
                c.return_();
            });
            // unpack(byte[] b, int at, long[] s, int base): locals 1 b, 2 at, 3 s, 4 base
            cb.withMethodBody("unpack", UNPACK, ClassFile.ACC_PUBLIC, c -> {
                for (int i = 0; i < widths.length; i++) {
                    unpackField(c, bitOffsets[i], widths[i], slots[i]);
                }
                c.return_();
            });
        });
    }

    /** Pushes {@code at + k} (a byte index) where {@code at} is local {@code atLocal}. */
    private static void byteIndex(CodeBuilder c, int atLocal, int k) {
        c.iload(atLocal);
        if (k != 0) {
            c.loadConstant(k).iadd();
        }
    }

    /** Pushes {@code base + k} (a slot index) where {@code base} is local {@code baseLocal}. */
    private static void slotIndex(CodeBuilder c, int baseLocal, int k) {
        c.iload(baseLocal);
        if (k != 0) {
            c.loadConstant(k).iadd();
        }
    }

    private static void unpackField(CodeBuilder c, int bit, int width, int slot) {
        boolean aligned = ((bit | width) & 7) == 0;
        if (width > 64) {
            if (aligned && (width & 63) == 0) {
                int n = width >>> 6;
                for (int k = 0; k < n; k++) {
                    c.aload(3);
                    slotIndex(c, 4, slot + n - 1 - k);
                    c.aload(1);
                    byteIndex(c, 2, bit / 8 + 8 * k);
                    c.invokestatic(SELF, "u64", GET).lastore();
                }
            } else {
                c.aload(1);
                c.iload(2).iconst_3().ishl().loadConstant(bit).iadd();
                c.loadConstant(width).aload(3);
                slotIndex(c, 4, slot);
                c.invokestatic(BIT_IO, "readWide", WIDE);
            }
            return;
        }
        c.aload(3);
        slotIndex(c, 4, slot);
        c.aload(1);
        byteIndex(c, 2, bit >>> 3);
        if (aligned) {
            switch (width) {
                case 8 -> c.invokestatic(SELF, "u8", GET);
                case 16 -> c.invokestatic(SELF, "u16", GET);
                case 32 -> c.invokestatic(SELF, "u32", GET);
                case 64 -> c.invokestatic(SELF, "u64", GET);
                default -> c.loadConstant(width >>> 3).invokestatic(SELF, "bytes", GET_N);
            }
        } else {
            c.loadConstant(bit & 7).loadConstant(width).invokestatic(SELF, "bits", GET_BITS);
        }
        c.lastore();
    }

    private static void packField(CodeBuilder c, int bit, int width, int slot) {
        boolean aligned = ((bit | width) & 7) == 0;
        if (width > 64) {
            if (aligned && (width & 63) == 0) {
                int n = width >>> 6;
                for (int k = 0; k < n; k++) {
                    c.aload(3);
                    byteIndex(c, 4, bit / 8 + 8 * k);
                    c.aload(1);
                    slotIndex(c, 2, slot + n - 1 - k);
                    c.laload().invokestatic(SELF, "put64", PUT);
                }
            } else {
                c.aload(3);
                c.iload(4).iconst_3().ishl().loadConstant(bit).iadd();
                c.loadConstant(width).aload(1);
                slotIndex(c, 2, slot);
                c.invokestatic(BIT_IO, "writeWide", WIDE);
            }
            return;
        }
        c.aload(3);
        byteIndex(c, 4, bit >>> 3);
        if (aligned) {
            switch (width) {
                case 8, 16, 32, 64 -> {
                    c.aload(1);
                    slotIndex(c, 2, slot);
                    c.laload().invokestatic(SELF, "put" + width, PUT);
                }
                default -> {
                    c.loadConstant(width >>> 3).aload(1);
                    slotIndex(c, 2, slot);
                    c.laload().invokestatic(SELF, "putBytes", PUT_N);
                }
            }
        } else {
            c.loadConstant(bit & 7).loadConstant(width).aload(1);
            slotIndex(c, 2, slot);
            c.laload().invokestatic(SELF, "putBits", PUT_BITS);
        }
    }

    // ------------------------------------------------------------------ what the generated code calls

    private static final VarHandle BE_LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle BE_INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle BE_SHORT = MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.BIG_ENDIAN);

    public static long u8(byte[] b, int p) {
        return b[p] & 0xFFL;
    }

    public static long u16(byte[] b, int p) {
        return (short) BE_SHORT.get(b, p) & 0xFFFFL;
    }

    public static long u32(byte[] b, int p) {
        return (int) BE_INT.get(b, p) & 0xFFFFFFFFL;
    }

    public static long u64(byte[] b, int p) {
        return (long) BE_LONG.get(b, p);
    }

    /** {@code n} (1..8) whole bytes, big-endian. */
    public static long bytes(byte[] b, int p, int n) {
        return switch (n) {
            case 3 -> (u16(b, p) << 8) | u8(b, p + 2);
            case 5 -> (u32(b, p) << 8) | u8(b, p + 4);
            case 6 -> (u32(b, p) << 16) | u16(b, p + 4); // MAC addresses
            case 7 -> (u32(b, p) << 24) | (u16(b, p + 4) << 8) | u8(b, p + 6);
            default -> {
                long v = 0;
                for (int k = 0; k < n; k++) {
                    v = (v << 8) | (b[p + k] & 0xFFL);
                }
                yield v;
            }
        };
    }

    /** {@code width} (1..64) bits starting {@code lead} (0..7) bits into byte {@code p}. */
    public static long bits(byte[] b, int p, int lead, int width) {
        return BitIO.read(b, p * 8 + lead, width);
    }

    public static void put8(byte[] b, int p, long v) {
        b[p] = (byte) v;
    }

    public static void put16(byte[] b, int p, long v) {
        BE_SHORT.set(b, p, (short) v);
    }

    public static void put32(byte[] b, int p, long v) {
        BE_INT.set(b, p, (int) v);
    }

    public static void put64(byte[] b, int p, long v) {
        BE_LONG.set(b, p, v);
    }

    public static void putBytes(byte[] b, int p, int n, long v) {
        switch (n) {
            case 3 -> {
                put16(b, p, v >>> 8);
                put8(b, p + 2, v);
            }
            case 5 -> {
                put32(b, p, v >>> 8);
                put8(b, p + 4, v);
            }
            case 6 -> { // MAC addresses
                put32(b, p, v >>> 16);
                put16(b, p + 4, v);
            }
            case 7 -> {
                put32(b, p, v >>> 24);
                put16(b, p + 4, v >>> 8);
                put8(b, p + 6, v);
            }
            default -> {
                for (int k = n - 1; k >= 0; k--) {
                    b[p + k] = (byte) v;
                    v >>>= 8;
                }
            }
        }
    }

    public static void putBits(byte[] b, int p, int lead, int width, long v) {
        BitIO.write(b, p * 8 + lead, width, v);
    }
}
