package dev.innet.sim.live;

import dev.innet.sim.SeededRandom;
import dev.innet.sim.testnodes.GossipNode;
import dev.innet.sim.testnodes.ProbeNode;
import dev.innet.wire.RackAddressing;
import dev.innet.wire.UdpFrame;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetAddress;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The live counterparts: the simulator's node classes, unchanged, over real UDP sockets on loopback. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class LiveHostTest {
    private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();

    private static LiveHost host(int h, dev.innet.sim.NodeFactory factory, AddressBook book, List<Integer> ports, Path dir) {
        return new LiveHost(h, factory, book, ports, LOOPBACK, new SeededRandom(h), new FileDurableStore(dir.resolve("h" + h)), System.err);
    }

    @Test
    void twoGossipNodesExchangePingsAndPongsOverLoopback(@TempDir Path dir) throws Exception {
        AddressBook book = AddressBook.mapped();
        try (LiveHost one = host(1, () -> new GossipNode(List.of(2), 20, 500_000, GossipNode.Mode.DETERMINISTIC), book, List.of(GossipNode.PORT), dir);
             LiveHost two = host(2, () -> new GossipNode(List.of(1), 20, 500_000, GossipNode.Mode.DETERMINISTIC), book, List.of(GossipNode.PORT), dir)) {
            one.bind(); // both endpoints exist before the first ping
            two.bind();
            one.start();
            two.start();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            int[] counts = new int[4];
            while (System.nanoTime() < deadline) {
                counts[0] = one.call(n -> ((GossipNode) n).pingsReceived).get(10, TimeUnit.SECONDS);
                counts[1] = one.call(n -> ((GossipNode) n).pongsReceived).get(10, TimeUnit.SECONDS);
                counts[2] = two.call(n -> ((GossipNode) n).pingsReceived).get(10, TimeUnit.SECONDS);
                counts[3] = two.call(n -> ((GossipNode) n).pongsReceived).get(10, TimeUnit.SECONDS);
                if (counts[0] == 20 && counts[1] == 20 && counts[2] == 20 && counts[3] == 20) {
                    break;
                }
                Thread.sleep(20);
            }
            assertArrayEquals(new int[] {20, 20, 20, 20}, counts, "pings/pongs at h1 and h2");
            assertNull(one.failure());
            assertNull(two.failure());
            assertEquals(0, one.unroutable() + two.unroutable() + one.droppedInbound() + two.droppedInbound());
            assertEquals(0, one.call(n -> ((GossipNode) n).malformedReceived).get(10, TimeUnit.SECONDS));
        }
    }

    @Test
    void theReceiverSeesTheSameFrameBytesTheSenderBuiltAndCanReply(@TempDir Path dir) throws Exception {
        AddressBook book = AddressBook.mapped();
        try (LiveHost client = host(1, ProbeNode::new, book, List.of(40000), dir);
             LiveHost server = host(2, ProbeNode::new, book, List.of(5008), dir)) {
            client.bind();
            server.bind();
            client.start();
            server.start();
            byte[] sent = client.call(n -> {
                ProbeNode p = (ProbeNode) n;
                byte[] frame = p.frameTo(2, 42);
                p.ctx.network().send(frame);
                return frame;
            }).get(10, TimeUnit.SECONDS);
            byte[] got = awaitFrame(server);
            assertArrayEquals(sent, got, "live delivery rebuilds the exact frame a simulated switch would deliver");

            server.call(n -> {
                ProbeNode p = (ProbeNode) n;
                try {
                    p.ctx.network().send(UdpFrame.decode(got).reply(new byte[] {7, 7, 7, 7, 7, 7, 7, 7}));
                } catch (dev.innet.wire.WireException e) {
                    throw new AssertionError(e);
                }
                return null;
            }).get(10, TimeUnit.SECONDS);
            UdpFrame reply = UdpFrame.decode(awaitFrame(client));
            assertEquals(RackAddressing.hostIp(2), reply.srcIp());
            assertEquals(5008, reply.srcPort());
            assertEquals(40000, reply.dstPort());
        }
    }

    @Test
    void incarnationsCountRestartsThroughTheDurableStore(@TempDir Path dir) throws Exception {
        AddressBook book = AddressBook.mapped();
        for (int expected = 0; expected < 3; expected++) {
            try (LiveHost h = new LiveHost(1, ProbeNode::new, book, List.of(6000 + expected), LOOPBACK,
                    new SeededRandom(1), new FileDurableStore(dir.resolve("h1")), null)) {
                h.start();
                assertEquals(expected, h.call(n -> ((ProbeNode) n).ctx.incarnation()).get(10, TimeUnit.SECONDS));
            }
        }
    }

    private static byte[] awaitFrame(LiveHost host) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < deadline) {
            byte[] frame = host.call(n -> {
                ProbeNode p = (ProbeNode) n;
                return p.received.isEmpty() ? null : p.received.get(0).frame();
            }).get(10, TimeUnit.SECONDS);
            if (frame != null) {
                return frame;
            }
            Thread.sleep(10);
        }
        throw new AssertionError("no frame arrived within 10 s");
    }
}
