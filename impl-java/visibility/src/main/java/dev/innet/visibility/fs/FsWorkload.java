package dev.innet.visibility.fs;

import dev.innet.sim.RandomSource;
import dev.innet.wire.InnetMessage;
import java.nio.charset.StandardCharsets;

/**
 * What a file-system client does: operations on the paths {@code /d<j>/f<i>} ({@code directories} x
 * {@code filesPerDirectory}, shared by all clients so they contend), chosen zipfian with {@code zipfTheta}
 * over the paths in order (the paper's §VI file-system runs use zipf 0.99 over up to 32 files a
 * directory); creates with probability {@code createFraction}, stats with {@code statFraction}, whole-file
 * writes otherwise, of {@code minBytes..maxBytes} bytes. No path exists at the start: early writes and
 * stats find nothing, later creates find the path.
 */
public record FsWorkload(int directories, int filesPerDirectory, double zipfTheta, double createFraction,
        double statFraction, int minBytes, int maxBytes, long thinkNanos) {
    public FsWorkload {
        if (directories < 1 || filesPerDirectory < 1 || zipfTheta < 0 || createFraction < 0 || statFraction < 0
                || createFraction + statFraction > 1 || minBytes < 0 || maxBytes < minBytes
                || maxBytes > InnetMessage.MAX_VALUE_BYTES || thinkNanos < 0) {
            throw new IllegalArgumentException("invalid file-system workload");
        }
        if (pathOf(directories - 1, filesPerDirectory - 1).length() > InnetMessage.KEY_BYTES) {
            throw new IllegalArgumentException("paths are at most " + InnetMessage.KEY_BYTES + " bytes: "
                    + pathOf(directories - 1, filesPerDirectory - 1));
        }
    }

    /** 4 directories of 6 files, zipf 0.9, 20% creates, 40% stats, 40% writes of 1-64 bytes. */
    public static FsWorkload standard() {
        return new FsWorkload(4, 6, 0.9, 0.2, 0.4, 1, 64, 0);
    }

    public int paths() {
        return directories * filesPerDirectory;
    }

    static String pathOf(int directory, int file) {
        return "/d" + directory + "/f" + file;
    }

    /** Path number {@code i} (0 .. paths-1) as its 16-byte wire key. */
    public byte[] path(int i) {
        return InnetMessage.key(pathOf(i / filesPerDirectory, i % filesPerDirectory));
    }

    public enum Kind { CREATE, WRITE, STAT }

    public Kind nextKind(RandomSource random) {
        double dice = random.nextDouble();
        return dice < createFraction ? Kind.CREATE : dice < createFraction + statFraction ? Kind.STAT : Kind.WRITE;
    }

    /** A zipfian draw of a path number: rank r (from 0) with probability proportional to 1 / (r+1)^theta. */
    public int nextPath(RandomSource random) {
        double total = 0;
        for (int r = 0; r < paths(); r++) {
            total += weight(r);
        }
        double u = random.nextDouble() * total;
        for (int r = 0; r < paths() - 1; r++) {
            u -= weight(r);
            if (u < 0) {
                return r;
            }
        }
        return paths() - 1;
    }

    private double weight(int rank) {
        return 1 / Math.pow(rank + 1, zipfTheta);
    }

    public int nextSize(RandomSource random) {
        return minBytes + random.nextInt(maxBytes - minBytes + 1);
    }

    /** Data of {@code size} bytes that names its writer (readable in a data node's log). */
    static byte[] data(String writer, int size) {
        byte[] d = new byte[size];
        byte[] name = writer.getBytes(StandardCharsets.UTF_8);
        for (int i = 0; i < size; i++) {
            d[i] = i < name.length ? name[i] : (byte) 'x';
        }
        return d;
    }
}
