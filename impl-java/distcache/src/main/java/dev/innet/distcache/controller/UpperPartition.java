package dev.innet.distcache.controller;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.CRC32;

/**
 * The upper layer's partition (§3.2, §4.4): a key's bucket is CRC-32 of its 16 bytes followed by the
 * 4-byte big-endian salt, mod {@link #BUCKETS} (p4/include/distcache_sizes.p4: DC_UPPER_SALT,
 * DC_UPPER_BUCKETS), and each bucket names one spine's cache node. Buckets are the virtual nodes of the
 * paper's remapping: each spine has a contiguous home block; a failed spine's buckets are dealt to the
 * live spines one by one, and return home when it is back. The lower layer's partition is the servers'
 * placement (a consistent-hash ring), independent of this CRC.
 */
public final class UpperPartition {
    public static final int BUCKETS = 1024;
    public static final int SALT = 0x2545F491;

    private final int spines;
    private final int[] owner = new int[BUCKETS];

    /** Every bucket at its home spine (node numbers 1..spines). */
    public UpperPartition(int spines) {
        if (spines < 1) {
            throw new IllegalArgumentException("at least one spine");
        }
        this.spines = spines;
        for (int b = 0; b < BUCKETS; b++) {
            owner[b] = home(b);
        }
    }

    public static int bucket(byte[] key) {
        if (key.length != 16) {
            throw new IllegalArgumentException("keys are 16 bytes");
        }
        CRC32 crc = new CRC32();
        crc.update(key);
        crc.update(ByteBuffer.allocate(4).putInt(SALT).array());
        return (int) (crc.getValue() % BUCKETS);
    }

    /** The spine (node number) whose home block holds bucket {@code b}. */
    public int home(int b) {
        return (int) ((long) b * spines / BUCKETS) + 1;
    }

    public int ownerOf(int bucket) {
        return owner[bucket];
    }

    public int ownerOfKey(byte[] key) {
        return owner[bucket(key)];
    }

    /** A copy of bucket -> node (0: no live spine). */
    public int[] owners() {
        return Arrays.copyOf(owner, BUCKETS);
    }

    /**
     * Spine {@code failed} is gone: its buckets go round-robin to {@code live} (none left: 0, the layer
     * caches nothing there). Returns the buckets that moved.
     */
    public List<Integer> reassign(int failed, List<Integer> live) {
        List<Integer> moved = new ArrayList<>();
        int next = 0;
        for (int b = 0; b < BUCKETS; b++) {
            if (owner[b] == failed) {
                owner[b] = live.isEmpty() ? 0 : live.get(next++ % live.size());
                moved.add(b);
            }
        }
        return moved;
    }

    /** Spine {@code node} is back: its home buckets return to it. Returns them with their previous owners. */
    public List<int[]> restoreHome(int node) {
        List<int[]> moved = new ArrayList<>();
        for (int b = 0; b < BUCKETS; b++) {
            if (home(b) == node && owner[b] != node) {
                moved.add(new int[] {b, owner[b]});
                owner[b] = node;
            }
        }
        return moved;
    }
}
