package dev.innet.pegasus.chain;

/**
 * A storage server's place in the chains (§7): its rack, where keys live, and the view of the chains
 * it holds. One per server incarnation.
 */
public final class ChainRole {
    private final int rack;
    private final ChainPlacement placement;
    private final HeldChainView view;

    public ChainRole(int rack, ChainPlacement placement) {
        if (rack < 1 || rack > placement.racks()) {
            throw new IllegalArgumentException("rack " + rack + " is not one of 1.." + placement.racks());
        }
        this.rack = rack;
        this.placement = placement;
        this.view = new HeldChainView(placement.racks());
    }

    public HeldChainView view() {
        return view;
    }

    public int rack() {
        return rack;
    }

    /**
     * Where this server passes a write of {@code key} it executed: the key's home in the next rack of
     * its chain, or 0 when this rack is the tail (the server answers the client itself).
     */
    public int nextHop(byte[] key) {
        int next = placement.nextAfter(rack, key, view.view());
        return next == 0 ? 0 : placement.homeIn(next, key);
    }
}
