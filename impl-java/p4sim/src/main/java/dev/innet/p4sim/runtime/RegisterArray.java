package dev.innet.p4sim.runtime;

import java.util.Arrays;

/** A v1model {@code register<T>(size)}: {@code size} cells of {@code width} bits, each in {@code words} longs. */
public final class RegisterArray {
    public final String name;
    public final int width;
    public final int size;
    public final int words;
    final long[] cells;
    /** Data-plane reads/writes with an index outside [0, size): ignored writes, reads of 0. */
    public long outOfRangeAccesses;

    public RegisterArray(String name, int width, int size) {
        this.name = name;
        this.width = width;
        this.size = size;
        this.words = Wide.words(width);
        this.cells = new long[size * words];
    }

    /** Narrow read (width <= 64). */
    public long read(long index) {
        if (index < 0 || index >= size) {
            outOfRangeAccesses++;
            return 0;
        }
        return cells[(int) index];
    }

    public void write(long index, long value) {
        if (index < 0 || index >= size) {
            outOfRangeAccesses++;
            return;
        }
        cells[(int) index] = value & BitIO.mask(width);
    }

    public void readWide(long index, long[] dst, int off) {
        if (index < 0 || index >= size) {
            outOfRangeAccesses++;
            Arrays.fill(dst, off, off + words, 0L);
            return;
        }
        System.arraycopy(cells, (int) index * words, dst, off, words);
    }

    public void writeWide(long index, long[] src, int off) {
        if (index < 0 || index >= size) {
            outOfRangeAccesses++;
            return;
        }
        System.arraycopy(src, off, cells, (int) index * words, words);
        Wide.maskTop(cells, (int) index * words, width);
    }

    /** Control-plane access: the cell as words (least significant first). */
    public long[] get(int index) {
        return Arrays.copyOfRange(cells, index * words, index * words + words);
    }

    public void set(int index, long[] value) {
        System.arraycopy(value, 0, cells, index * words, words);
        Wide.maskTop(cells, index * words, width);
    }

    public void reset() {
        Arrays.fill(cells, 0L);
    }
}
