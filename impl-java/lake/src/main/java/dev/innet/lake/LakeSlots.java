package dev.innet.lake;

import java.util.zip.CRC32;

/**
 * Where p4/lake.p4 keeps a key (its {@code compute_slots}): a CRC-32 of the key over the first layer's
 * slots, and of the key followed by {@link #L2_SALT} over the second layer's. The replay, the trace
 * converter and tests that need two keys to share (or not share) a slot compute it here.
 */
public final class LakeSlots {
    /** lake.p4's L1_SLOTS, L2_SLOTS and L2_SALT ("LaKe"). */
    public static final int L1_SLOTS = dev.innet.lake.controller.LakeSwitchOs.L1_SLOTS;
    public static final int L2_SLOTS = dev.innet.lake.controller.LakeSwitchOs.L2_SLOTS;
    static final byte[] L2_SALT = {0x4c, 0x61, 0x4b, 0x65};

    private LakeSlots() {}

    public static int l1Slot(byte[] key) {
        CRC32 crc = new CRC32();
        crc.update(key);
        return (int) (crc.getValue() % L1_SLOTS);
    }

    public static int l2Slot(byte[] key) {
        CRC32 crc = new CRC32();
        crc.update(key);
        crc.update(L2_SALT);
        return (int) (crc.getValue() % L2_SLOTS);
    }
}
