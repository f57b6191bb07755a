package dev.innet.lake.controller;

import dev.innet.kv.ConsistentHashRing;
import dev.innet.protocol.ForwardingSwitchOs;
import dev.innet.switchapi.SwitchControl;
import dev.innet.switchapi.SwitchHandle;
import java.math.BigInteger;
import java.util.List;

/**
 * LaKe's switch OS: on every fresh or reset device (which lost every register) it seeds
 * {@code tag_counter} above every tag an earlier generation can have issued, before forwarding goes
 * in, so no tag of the new generation repeats an old one still in flight (specs/lake: tags never
 * repeat). Tags of generation g start at g * 2^24: each generation may issue 2^24 tags
 * (docs/lake.md, Limits).
 */
public final class LakeSwitchOs extends ForwardingSwitchOs {
    public static final String TAG_COUNTER = "MyIngress.tag_counter";
    /** The lookup table's tags (p4/lake.p4): 0 marks a free entry. */
    public static final String LUT_TAG = "MyIngress.lut_tag";
    /** p4/lake.p4's layer sizes and cached key length. */
    public static final int L1_SLOTS = 256;
    public static final int L2_SLOTS = 4096;
    public static final int KEY_BYTES = 16;
    static final int TAG_BITS_PER_GENERATION = 24;

    public LakeSwitchOs(List<Integer> hosts, SwitchHandle handle, long pollNanos) {
        super(hosts, handle, pollNanos);
    }

    @Override
    protected void beforeForwarding(SwitchControl control, int generation) {
        control.registerWrite(TAG_COUNTER, 0, tagBase(generation));
    }

    /** What {@link #forgetServer} cleared: the slots of each layer that held a key of the restarted server. */
    public record Forgotten(int l1Slots, int l2Slots) {}

    /**
     * Makes the data plane forget what memcached on {@code server} lost when it was killed (it starts
     * again empty), and nothing else; called while that memcached is down, before it starts (Lake.tla's
     * SwitchForget). Two steps, in this order:
     * <ol>
     *   <li>the lookup table is cleared ({@code lut_tag}), so a reply still in flight from the dead
     *       memcached matches no tag and is dropped (LK-7) instead of filling a lost item back in. The
     *       whole table, not only the entries of the server's keys: that only drops replies of requests
     *       to the other servers too (their clients time out; a GET is retried, a SET ends unknown);</li>
     *   <li>each layer's slots are read ({@code l1_key}, {@code l2_key} and the valid bits), and every
     *       valid slot whose key the consistent-hash ring of {@code servers} (the one {@code LakeClient}
     *       sends by) gives to {@code server} is invalidated. Slots holding other servers' keys stay
     *       and keep answering GETs.</li>
     * </ol>
     * The data plane keeps running meanwhile. That is safe because of the order: once the table is
     * cleared, a slot can come to hold a key only through the reply to a request forwarded after that,
     * and requests to the restarted server are not answered before it starts, after this returns. So no
     * slot gains a key of the server during the scan; a slot refilled with another server's key between
     * its read and its invalidation loses that entry, which is only a miss. Tags and fences stay: new
     * tags are above every fence.
     */
    public static Forgotten forgetServer(SwitchControl control, int server, List<Integer> servers) {
        if (!servers.contains(server)) {
            throw new IllegalArgumentException("host " + server + " is not one of the memcached servers " + servers);
        }
        ConsistentHashRing ring = new ConsistentHashRing(servers);
        control.registerReset(LUT_TAG);
        return new Forgotten(invalidateSlotsOf(control, "l1", L1_SLOTS, ring, server),
                invalidateSlotsOf(control, "l2", L2_SLOTS, ring, server));
    }

    /** Invalidates the valid slots of one layer whose key {@code ring} gives to {@code server}; returns how many. */
    private static int invalidateSlotsOf(SwitchControl control, String layer, int slots, ConsistentHashRing ring,
            int server) {
        String valid = "MyIngress." + layer + "_valid";
        List<BigInteger> validBits = control.registerRead(valid, 0, slots - 1);
        List<BigInteger> keys = control.registerRead("MyIngress." + layer + "_key", 0, slots - 1);
        int cleared = 0;
        for (int i = 0; i < slots; i++) {
            if (validBits.get(i).signum() != 0 && ring.ownerOf(registerBytes(keys.get(i), KEY_BYTES)) == server) {
                control.registerWrite(valid, i, BigInteger.ZERO);
                cleared++;
            }
        }
        return cleared;
    }

    /** A register's value as its {@code bytes} big-endian bytes (the layout of the P4 field it holds). */
    public static byte[] registerBytes(BigInteger value, int bytes) {
        byte[] raw = value.toByteArray();
        byte[] out = new byte[bytes];
        int n = Math.min(raw.length, bytes);
        System.arraycopy(raw, raw.length - n, out, bytes - n, n);
        return out;
    }

    /** The first tag of switch generation {@code generation} minus one: what {@code tag_counter} is seeded with. */
    public static BigInteger tagBase(int generation) {
        return BigInteger.valueOf(generation).shiftLeft(TAG_BITS_PER_GENERATION);
    }
}
