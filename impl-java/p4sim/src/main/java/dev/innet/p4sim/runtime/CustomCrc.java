package dev.innet.p4sim.runtime;

/**
 * A {@code crc16_custom} or {@code crc32_custom} calculation with bmv2's semantics (bm_sim/calculations.cpp,
 * {@code crc_custom<T>}): a table-driven CRC of {@code width} bits whose polynomial, initial remainder,
 * final XOR value and reflections the control plane sets at run time ({@code set_crc16_parameters} /
 * {@code set_crc32_parameters} in bmv2's CLI). Until then the parameters are bmv2's defaults, which
 * make crc16_custom equal crc16 (CRC-16/ARC) and crc32_custom equal crc32.
 */
public final class CustomCrc {
    public final String name;
    public final int width;
    /** Where the calculation is in the program, for listings. */
    public final String where;
    private long polynomial;
    private long initialRemainder;
    private long finalXor;
    private boolean dataReflected;
    private boolean remainderReflected;
    private final long[] table = new long[256];

    public CustomCrc(String name, int width, String where) {
        if (width != 16 && width != 32) {
            throw new IllegalArgumentException("custom CRC width must be 16 or 32, got " + width);
        }
        this.name = name;
        this.width = width;
        this.where = where;
        if (width == 16) {
            configure(0x8005, 0, 0, true, true);
        } else {
            configure(0x04C11DB7L, 0xFFFFFFFFL, 0xFFFFFFFFL, true, true);
        }
    }

    /** New parameters (values are cut to the CRC's width), as bmv2's update_config. */
    public void configure(long poly, long init, long xor, boolean reflectData, boolean reflectRemainder) {
        long mask = mask();
        polynomial = poly & mask;
        initialRemainder = init & mask;
        finalXor = xor & mask;
        dataReflected = reflectData;
        remainderReflected = reflectRemainder;
        long top = 1L << (width - 1);
        for (int dividend = 0; dividend < 256; dividend++) {
            long r = ((long) dividend << (width - 8)) & mask;
            for (int bit = 0; bit < 8; bit++) {
                r = (r & top) != 0 ? ((r << 1) ^ polynomial) & mask : (r << 1) & mask;
            }
            table[dividend] = r;
        }
    }

    public long compute(byte[] buf, int len) {
        long mask = mask();
        long r = initialRemainder;
        for (int i = 0; i < len; i++) {
            int b = buf[i] & 0xFF;
            int in = dataReflected ? Integer.reverse(b) >>> 24 : b;
            int index = (int) ((in ^ (r >>> (width - 8))) & 0xFF);
            r = (table[index] ^ (r << 8)) & mask;
        }
        long out = remainderReflected ? Long.reverse(r) >>> (64 - width) : r;
        return (out ^ finalXor) & mask;
    }

    /** The current parameters, as bmv2's CLI prints them. */
    public String describe() {
        return name + " (" + where + ", crc" + width + "_custom): polynomial 0x" + Long.toHexString(polynomial)
                + ", initial remainder 0x" + Long.toHexString(initialRemainder) + ", final xor 0x" + Long.toHexString(finalXor)
                + ", reflect data " + dataReflected + ", reflect remainder " + remainderReflected;
    }

    private long mask() {
        return width == 64 ? -1L : (1L << width) - 1;
    }
}
