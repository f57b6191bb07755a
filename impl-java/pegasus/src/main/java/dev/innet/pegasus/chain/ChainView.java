package dev.innet.pegasus.chain;

import java.nio.ByteBuffer;

/**
 * The configuration service's current word on the chains (§7 "Reconfiguring the Chains"): which racks
 * are in every chain, and the epoch of that decision. A node adopts a view only if its epoch is newer,
 * so a delayed or duplicated announcement never brings a removed rack back.
 *
 * @param epoch     0 for the initial configuration, +1 per reconfiguration
 * @param liveRacks bit r-1 set: rack r is in the chains
 */
public record ChainView(long epoch, long liveRacks) {
    public ChainView {
        if (epoch < 0 || liveRacks == 0) {
            throw new IllegalArgumentException("a chain view has a non-negative epoch and at least one rack");
        }
    }

    public static ChainView initial(int racks) {
        return new ChainView(0, (1L << racks) - 1);
    }

    public boolean isLive(int rack) {
        return (liveRacks & (1L << (rack - 1))) != 0;
    }

    /** The view without {@code rack}: the next epoch. */
    public ChainView without(int rack) {
        return new ChainView(epoch + 1, liveRacks & ~(1L << (rack - 1)));
    }

    public byte[] encode() {
        return ByteBuffer.allocate(16).putLong(epoch).putLong(liveRacks).array();
    }

    public static ChainView decode(byte[] b) {
        if (b.length != 16) {
            throw new IllegalArgumentException("a chain view is 16 bytes, got " + b.length);
        }
        ByteBuffer buf = ByteBuffer.wrap(b);
        return new ChainView(buf.getLong(), buf.getLong());
    }
}
