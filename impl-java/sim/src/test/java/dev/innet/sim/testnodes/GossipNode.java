package dev.innet.sim.testnodes;

import dev.innet.sim.Node;
import dev.innet.sim.NodeContext;
import dev.innet.sim.RandomSource;
import dev.innet.sim.SeededRandom;
import dev.innet.wire.RackAddressing;
import dev.innet.wire.UdpFrame;
import dev.innet.wire.WireException;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Optional;
import java.util.Random;

/**
 * A test workload: at random intervals the node sends a numbered ping to a random peer, which answers
 * with a pong. It persists how many pings it has sent (synced every few pings) so a restarted
 * incarnation continues the numbering, and counts what it received.
 *
 * <p>Two deliberately broken modes show that the determinism checks catch what the simulator's rules
 * forbid: {@link Mode#SHARED_RANDOM} picks peers from a shared, unseeded {@link Random};
 * {@link Mode#IDENTITY_HASH} seeds its peer choice from an identity hash that is stable within one JVM
 * but not across JVMs, which only a replay in a fresh JVM exposes.
 */
public final class GossipNode implements Node {
    public enum Mode { DETERMINISTIC, SHARED_RANDOM, IDENTITY_HASH }

    public static final int PORT = 5008;
    private static final byte PING = 1;
    private static final byte PONG = 2;
    private static final String SENT_KEY = "gossip.sent";
    /** Deliberately shared and unseeded: only {@link Mode#SHARED_RANDOM} touches it. */
    private static final Random SHARED_UNSEEDED = new Random();

    private final List<Integer> peers;
    private final int maxPings;
    private final long meanIntervalNanos;
    private final Mode mode;

    private NodeContext ctx;
    private RandomSource jitter;
    private RandomSource peerChoice;
    private long sent;
    public int pingsReceived;
    public int pongsReceived;
    public int malformedReceived;

    public GossipNode(List<Integer> peers, int maxPings, long meanIntervalNanos, Mode mode) {
        if (peers.isEmpty() || maxPings < 0 || meanIntervalNanos <= 0) {
            throw new IllegalArgumentException("peers, a ping budget and an interval are required");
        }
        this.peers = List.copyOf(peers);
        this.maxPings = maxPings;
        this.meanIntervalNanos = meanIntervalNanos;
        this.mode = mode;
    }

    @Override
    public void onStart(NodeContext ctx) {
        assert this.ctx == null : "onStart twice";
        this.ctx = ctx;
        this.jitter = ctx.random().fork("jitter");
        this.peerChoice = mode == Mode.IDENTITY_HASH
                ? new SeededRandom(Mode.IDENTITY_HASH.hashCode()) // an enum's hashCode is its identity hash
                : ctx.random().fork("peers");
        Optional<byte[]> stored = ctx.durable().get(SENT_KEY);
        this.sent = stored.map(b -> ByteBuffer.wrap(b).getLong()).orElse(0L);
        ctx.log("resuming at ping " + sent);
        scheduleNext();
    }

    @Override
    public void onTimer(long timerId) {
        if (sent >= maxPings) {
            return;
        }
        int peer = mode == Mode.SHARED_RANDOM ? peers.get(SHARED_UNSEEDED.nextInt(peers.size()))
                : peers.get(peerChoice.nextInt(peers.size()));
        sent++;
        send(peer, PING, sent);
        if (sent % 4 == 0) {
            ctx.durable().put(SENT_KEY, ByteBuffer.allocate(8).putLong(sent).array());
            ctx.durable().sync();
        }
        scheduleNext();
    }

    @Override
    public void onPacket(byte[] frame) {
        UdpFrame f;
        try {
            f = UdpFrame.decode(frame);
        } catch (WireException e) {
            malformedReceived++;
            return;
        }
        if (f.dstIp() != RackAddressing.hostIp(ctx.hostNumber()) || f.payload().length != 9) {
            malformedReceived++;
            return;
        }
        ByteBuffer payload = ByteBuffer.wrap(f.payload());
        byte kind = payload.get();
        long number = payload.getLong();
        if (kind == PING) {
            pingsReceived++;
            send(RackAddressing.hostOfIp(f.srcIp()), PONG, number);
        } else if (kind == PONG) {
            pongsReceived++;
        } else {
            malformedReceived++;
        }
    }

    private void send(int peer, byte kind, long number) {
        byte[] payload = ByteBuffer.allocate(9).put(kind).putLong(number).array();
        ctx.network().send(new UdpFrame(RackAddressing.hostMac(peer), RackAddressing.hostMac(ctx.hostNumber()),
                RackAddressing.hostIp(ctx.hostNumber()), RackAddressing.hostIp(peer), PORT, PORT, payload));
    }

    private void scheduleNext() {
        if (sent < maxPings) {
            ctx.timers().schedule(1 + jitter.nextLong(2 * meanIntervalNanos));
        }
    }

    public long sent() {
        return sent;
    }
}
