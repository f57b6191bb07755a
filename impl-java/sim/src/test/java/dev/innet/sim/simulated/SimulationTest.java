package dev.innet.sim.simulated;

import dev.innet.sim.Node;
import dev.innet.sim.NodeContext;
import dev.innet.sim.testnodes.ProbeNode;
import dev.innet.sim.testnodes.StaticForwardingSwitch;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The simulator's rules one at a time, each with a probe node and the test switch. */
class SimulationTest {
    private static final long US = 1_000;
    private static final long MS = 1_000_000;

    /** A rack of probe nodes 1..n on ports 1..n of switch "tor". */
    private static final class Rack {
        final Simulation sim;
        final SimSwitch tor;
        final TreeMap<Integer, List<ProbeNode>> incarnations = new TreeMap<>();

        Rack(Simulation.Builder builder, int hosts) {
            sim = builder.out(null).build();
            int[] numbers = new int[hosts];
            for (int i = 0; i < hosts; i++) {
                numbers[i] = i + 1;
            }
            tor = sim.addSwitch("tor", () -> StaticForwardingSwitch.hostOnSamePort(numbers));
            for (int h = 1; h <= hosts; h++) {
                int host = h;
                incarnations.put(h, new ArrayList<>());
                sim.addHost(h, () -> {
                    ProbeNode p = new ProbeNode();
                    incarnations.get(host).add(p);
                    return p;
                }, tor, h);
            }
            sim.runUntil(0);
        }

        ProbeNode probe(int host) {
            List<ProbeNode> list = incarnations.get(host);
            return list.get(list.size() - 1);
        }

        void sendAt(long time, int from, int to, long number) {
            sim.atNode(time, from, "send " + number, n -> ((ProbeNode) n).sendTo(to, number));
        }
    }

    @Test
    void deliversTheExactBytesThroughTheSwitchAfterBothLinkDelays() {
        Rack rack = new Rack(Simulation.builder(1).defaultFaults(LinkFaults.fixedDelay(5 * US)), 2);
        byte[] sent = rack.probe(1).frameTo(2, 42);
        rack.sim.atNode(100 * US, 1, "send", n -> ((ProbeNode) n).ctx.network().send(sent));
        rack.sim.runUntil(1 * MS);

        List<ProbeNode.Received> got = rack.probe(2).received;
        assertEquals(1, got.size());
        assertArrayEquals(sent, got.get(0).frame());
        assertNotSame(sent, got.get(0).frame(), "the receiver gets its own copy");
        assertEquals(110 * US, got.get(0).timeNanos(), "two hops of 5 us each");
        assertEquals(0, rack.probe(1).received.size());
    }

    @Test
    void fixedDelayKeepsOrderAndAWideDelayRangeReorders() {
        Rack fifo = new Rack(Simulation.builder(7).defaultFaults(LinkFaults.fixedDelay(10 * US)), 2);
        Rack wide = new Rack(Simulation.builder(7).defaultFaults(LinkFaults.fixedDelay(0).withDelay(0, 100 * US)), 2);
        for (Rack r : List.of(fifo, wide)) {
            for (int i = 0; i < 50; i++) {
                r.sendAt(i * US, 1, 2, i);
            }
            r.sim.runUntil(10 * MS);
            assertEquals(50, r.probe(2).received.size());
        }
        List<Long> inOrder = new ArrayList<>();
        for (long i = 0; i < 50; i++) {
            inOrder.add(i);
        }
        assertEquals(inOrder, fifo.probe(2).numbers());
        assertNotEquals(inOrder, wide.probe(2).numbers(), "a 100 us spread over 1 us spacing must reorder");
    }

    @Test
    void aSwitchsProcessingTimeDelaysItsOutputWithoutReorderingAPort() {
        Rack rack = new Rack(Simulation.builder(1).defaultFaults(LinkFaults.fixedDelay(5 * US)), 3);
        // frame 0 takes the switch 50 us (a slow memory), every other frame none
        ((StaticForwardingSwitch) rack.tor.device()).processingNanos = frame -> {
            try {
                return java.nio.ByteBuffer.wrap(dev.innet.wire.UdpFrame.decode(frame).payload()).getLong() == 0 ? 50 * US : 0;
            } catch (dev.innet.wire.WireException e) {
                throw new AssertionError(e);
            }
        };
        rack.sendAt(0, 1, 2, 0);
        rack.sendAt(1 * US, 1, 2, 1);
        rack.sendAt(2 * US, 1, 3, 2);
        rack.sim.runUntil(1 * MS);
        List<ProbeNode.Received> at2 = rack.probe(2).received;
        assertEquals(List.of(0L, 1L), rack.probe(2).numbers(), "the fast frame does not overtake the slow one on its port");
        assertEquals(60 * US, at2.get(0).timeNanos(), "5 us up, 50 us in the switch, 5 us down");
        assertEquals(60 * US, at2.get(1).timeNanos(), "held behind frame 0, then sent at once");
        assertEquals(12 * US, rack.probe(3).received.get(0).timeNanos(), "another port is not held: 2 + 5 + 5 us");
    }

    @Test
    void explicitReorderHoldsSomeFramesBackEvenOnAFixedDelayLink() {
        Rack rack = new Rack(Simulation.builder(3).defaultFaults(LinkFaults.fixedDelay(10 * US).withReorder(0.3, 500 * US)), 2);
        for (int i = 0; i < 40; i++) {
            rack.sendAt(i * 10 * US, 1, 2, i);
        }
        rack.sim.runUntil(10 * MS);
        List<Long> got = rack.probe(2).numbers();
        assertEquals(40, got.size());
        List<Long> sorted = new ArrayList<>(got);
        sorted.sort(null);
        assertNotEquals(sorted, got);
    }

    @Test
    void dropAndDuplicateProbabilitiesAreApplied() {
        Rack lossy = new Rack(Simulation.builder(5).defaultFaults(LinkFaults.CLEAN.withDrop(1.0)), 2);
        Rack doubling = new Rack(Simulation.builder(5), 2);
        doubling.sim.link(1).toSwitch().setFaults(LinkFaults.CLEAN.withDuplicate(1.0));
        Rack half = new Rack(Simulation.builder(5).defaultFaults(LinkFaults.CLEAN.withDrop(0.5)), 2);
        for (Rack r : List.of(lossy, doubling, half)) {
            for (int i = 0; i < 200; i++) {
                r.sendAt(i * US, 1, 2, i);
            }
            r.sim.runUntil(10 * MS);
        }
        assertEquals(0, lossy.probe(2).received.size());
        assertEquals(400, doubling.probe(2).received.size());
        int survived = half.probe(2).received.size(); // two lossy hops: about a quarter survive
        assertTrue(survived > 20 && survived < 80, "survivors of two 50% hops: " + survived);
    }

    @Test
    void isolatingAHostLosesFramesOnlyDuringTheWindow() {
        Rack rack = new Rack(Simulation.builder(11), 2);
        rack.sim.isolateHost(1 * MS, 2 * MS, 2);
        rack.sendAt(500 * US, 1, 2, 1);
        rack.sendAt(1500 * US, 1, 2, 2);
        rack.sendAt(2500 * US, 1, 2, 3);
        rack.sim.runUntil(5 * MS);
        assertEquals(List.of(1L, 3L), rack.probe(2).numbers());
    }

    @Test
    void aCutAlsoLosesFramesAlreadyInFlight() {
        Rack rack = new Rack(Simulation.builder(11).defaultFaults(LinkFaults.fixedDelay(100 * US)), 2);
        rack.sendAt(0, 1, 2, 1); // on the last hop during [100, 200) us
        rack.sim.partitionLinks("cut-down", 150 * US, 160 * US, List.of(rack.sim.link(2).fromSwitch()));
        rack.sim.runUntil(5 * MS);
        assertEquals(List.of(), rack.probe(2).numbers());
    }

    @Test
    void aHostPartitionSeparatesGroupsButNotMembersOfOneGroup() {
        Rack rack = new Rack(Simulation.builder(13), 3);
        rack.sim.partitionHosts("split", 0, 1 * MS, Set.of(1, 3), Set.of(2));
        rack.sendAt(10 * US, 1, 2, 12);
        rack.sendAt(10 * US, 1, 3, 13);
        rack.sendAt(10 * US, 2, 3, 23);
        rack.sendAt(2 * MS, 1, 2, 120);
        rack.sim.runUntil(5 * MS);
        assertEquals(List.of(120L), rack.probe(2).numbers());
        assertEquals(List.of(13L), rack.probe(3).numbers());
    }

    @Test
    void crashDiscardsTheNodeItsTimersAndInboundFramesAndRestartKeepsOnlySyncedData() {
        Rack rack = new Rack(Simulation.builder(17).defaultFaults(LinkFaults.fixedDelay(100 * US)), 2);
        ProbeNode first = rack.probe(2);
        rack.sim.atNode(0, 2, "timer and durable writes", n -> {
            ProbeNode p = (ProbeNode) n;
            p.ctx.timers().schedule(1 * MS);
            p.ctx.durable().put("synced", new byte[] {1});
            p.ctx.durable().sync();
            p.ctx.durable().put("unsynced", new byte[] {2});
        });
        rack.sendAt(0, 1, 2, 7); // arrives at 200 us
        rack.sim.crashAt(150 * US, 2);
        rack.sim.restartAt(300 * US, 2);
        rack.sim.runUntil(5 * MS);

        ProbeNode second = rack.probe(2);
        assertNotSame(first, second, "restart builds a new node object");
        assertEquals(1, second.starts);
        assertEquals(1, second.ctx.incarnation());
        assertEquals(List.of(), first.timersFired, "the crashed incarnation's timer never fires");
        assertEquals(List.of(), second.timersFired, "nor does it fire on the new incarnation");
        assertEquals(List.of(), first.numbers());
        assertEquals(List.of(), second.numbers(), "the frame in flight at the crash is lost");
        assertArrayEquals(new byte[] {1}, second.ctx.durable().get("synced").orElseThrow());
        assertTrue(second.ctx.durable().get("unsynced").isEmpty(), "an unsynced write does not survive a crash");
    }

    @Test
    void framesToADownHostAreDroppedAndTheHostReceivesAgainAfterRestart() {
        Rack rack = new Rack(Simulation.builder(19), 2);
        rack.sim.crashAt(0, 2);
        rack.sendAt(1 * US, 1, 2, 1);
        rack.sim.restartAt(1 * MS, 2);
        rack.sendAt(2 * MS, 1, 2, 2);
        rack.sim.runUntil(5 * MS);
        assertEquals(List.of(2L), rack.probe(2).numbers());
        assertTrue(rack.sim.isUp(2));
    }

    @Test
    void healRestartsEverythingAndCleansEveryLink() {
        Rack rack = new Rack(Simulation.builder(23), 3);
        rack.sim.setAllLinkFaults(LinkFaults.CLEAN.withDrop(1.0));
        rack.sim.crashAt(10 * US, 3);
        rack.sim.crashSwitchAt(10 * US, rack.tor);
        rack.sim.isolateHost(10 * US, 100 * MS, 1);
        rack.sim.healAt(1 * MS);
        rack.sendAt(2 * MS, 1, 2, 5);
        rack.sim.runUntil(3 * MS);
        assertTrue(rack.sim.isUp(3));
        assertTrue(rack.tor.isUp());
        assertEquals(List.of(5L), rack.probe(2).numbers());
        for (Channel ch : rack.sim.channels()) {
            assertEquals(LinkFaults.CLEAN, ch.faults(), ch.name());
            assertFalse(ch.isCut(), ch.name());
        }
    }

    @Test
    void aSwitchCrashLosesItsStateAndFramesUntilRestart() {
        Rack rack = new Rack(Simulation.builder(29), 2);
        StaticForwardingSwitch before = (StaticForwardingSwitch) rack.tor.device();
        rack.sim.crashSwitchAt(1 * MS, rack.tor);
        rack.sendAt(1500 * US, 1, 2, 1);
        rack.sim.restartSwitchAt(2 * MS, rack.tor);
        rack.sendAt(2500 * US, 1, 2, 2);
        rack.sim.runUntil(5 * MS);
        assertEquals(List.of(2L), rack.probe(2).numbers());
        assertNotSame(before, rack.tor.device());
    }

    @Test
    void timersFireAtTheirTimeInSchedulingOrderAndCancelledOnesDoNot() {
        Rack rack = new Rack(Simulation.builder(31), 1);
        long[] ids = new long[4];
        rack.sim.atNode(0, 1, "timers", n -> {
            ProbeNode p = (ProbeNode) n;
            ids[0] = p.ctx.timers().schedule(50 * US);
            ids[1] = p.ctx.timers().schedule(10 * US);
            ids[2] = p.ctx.timers().schedule(50 * US);
            ids[3] = p.ctx.timers().schedule(20 * US);
            assertTrue(p.ctx.timers().cancel(ids[3]));
            assertFalse(p.ctx.timers().cancel(ids[3]));
        });
        rack.sim.runUntil(1 * MS);
        ProbeNode p = rack.probe(1);
        assertEquals(List.of(ids[1], ids[0], ids[2]), p.timersFired);
        assertEquals(List.of(10 * US, 50 * US, 50 * US), p.timerTimes);
    }

    @Test
    void aNodeThatThrowsFailsTheRunWithTheSeedInTheMessage() {
        Simulation sim = Simulation.builder(0xBADL).out(null).build();
        SimSwitch tor = sim.addSwitch("tor", () -> StaticForwardingSwitch.hostOnSamePort(1));
        sim.addHost(1, () -> new Node() {
            @Override
            public void onStart(NodeContext ctx) {
                ctx.timers().schedule(5);
            }

            @Override
            public void onPacket(byte[] frame) {
            }

            @Override
            public void onTimer(long timerId) {
                throw new IllegalStateException("invariant broken");
            }
        }, tor, 1);
        SimulationFailure f = assertThrows(SimulationFailure.class, () -> sim.runUntil(1 * MS));
        assertEquals(0xBADL, f.seed());
        assertTrue(f.getMessage().startsWith("seed=2989 t=0.000000005"), f.getMessage());
        assertTrue(f.getMessage().contains("invariant broken"), f.getMessage());
        assertTrue(f.getMessage().contains("-Dinnet.sim.seed=2989"), f.getMessage());
        assertTrue(f.getMessage().contains("TIMER h1 timer 1"), "quotes the recent events: " + f.getMessage());
    }

    @Test
    void theEventBudgetStopsALivelock() {
        Simulation sim = Simulation.builder(37).maxEvents(1_000).out(null).build();
        SimSwitch tor = sim.addSwitch("tor", () -> StaticForwardingSwitch.hostOnSamePort(1));
        sim.addHost(1, () -> new Node() {
            private NodeContext ctx;

            @Override
            public void onStart(NodeContext ctx) {
                this.ctx = ctx;
                ctx.timers().schedule(0);
            }

            @Override
            public void onPacket(byte[] frame) {
            }

            @Override
            public void onTimer(long timerId) {
                ctx.timers().schedule(0); // time never advances: a livelock
            }
        }, tor, 1);
        SimulationFailure f = assertThrows(SimulationFailure.class, () -> sim.runUntil(1 * MS));
        assertTrue(f.getMessage().contains("event budget of 1000 exhausted"), f.getMessage());
    }

    @Test
    void aContextIsDeadAfterItsCrashAndUnusableFromAnotherNode() {
        Rack rack = new Rack(Simulation.builder(41), 2);
        NodeContext firstOf2 = rack.probe(2).ctx;
        rack.sim.atNode(10 * US, 1, "misuse h2's context", n -> firstOf2.network().send(rack.probe(1).frameTo(2, 1)));
        SimulationFailure f = assertThrows(SimulationFailure.class, () -> rack.sim.runUntil(1 * MS));
        assertTrue(f.getMessage().contains("h2's context used (send) outside its own handler, from h1's"), f.getMessage());

        Rack again = new Rack(Simulation.builder(41), 2);
        NodeContext stale = again.probe(2).ctx;
        again.sim.crashAt(10 * US, 2);
        again.sim.restartAt(20 * US, 2);
        again.sim.atNode(30 * US, 2, "use the old context", n -> stale.timers().schedule(1));
        f = assertThrows(SimulationFailure.class, () -> again.sim.runUntil(1 * MS));
        assertTrue(f.getMessage().contains("h2 incarnation 0 used its context (schedule timer) after it crashed"), f.getMessage());
    }

    @Test
    void theHeaderPrintsTheSeedAndEveryFaultSetting() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        Simulation sim = Simulation.builder(43).out(new PrintStream(bytes, true, StandardCharsets.UTF_8)).build();
        SimSwitch tor = sim.addSwitch("tor", () -> StaticForwardingSwitch.hostOnSamePort(1, 2));
        sim.addHost(1, ProbeNode::new, tor, 1);
        sim.addHost(2, ProbeNode::new, tor, 2);
        sim.link(1).toSwitch().setFaults(LinkFaults.CLEAN.withDrop(0.25));
        sim.crashAt(5 * MS, 2);
        sim.runUntil(1 * MS);
        String header = bytes.toString(StandardCharsets.UTF_8);
        assertTrue(header.startsWith("innet-sim seed=43 (0x2b)\n"), header);
        assertTrue(header.contains("link h1>tor:1: drop=0.2500 dup=0.0000 delay=[1000,1000]ns"), header);
        assertTrue(header.contains("link tor:2>h2: drop=0.0000"), header);
        assertTrue(header.contains("fault t=0.005000000 crash h2"), header);
    }

    @Test
    void malformedFramesAreDroppedByTheSwitchNotTheSimulator() {
        Rack rack = new Rack(Simulation.builder(47), 2);
        rack.sim.atNode(0, 1, "garbage", n -> ((ProbeNode) n).ctx.network().send(new byte[60]));
        rack.sim.runUntil(1 * MS);
        StaticForwardingSwitch sw = (StaticForwardingSwitch) rack.tor.device();
        assertEquals(1, sw.framesIn);
        assertEquals(1, sw.dropped);
        assertThrows(SimulationFailure.class, () -> {
            rack.sim.atNode(2 * MS, 1, "too short", n -> ((ProbeNode) n).ctx.network().send(new byte[3]));
            rack.sim.runUntil(3 * MS);
        });
    }

    @Test
    void aPausedHostHandlesWhatWasDueWhenItResumesInOrder() {
        Rack rack = new Rack(Simulation.builder(53).defaultFaults(LinkFaults.fixedDelay(1 * US)), 2);
        rack.sim.atNode(0, 2, "timer at 2 ms", n -> ((ProbeNode) n).ctx.timers().schedule(2 * MS));
        rack.sim.pauseHost(1 * MS, 3 * MS, 2);
        rack.sendAt(1500 * US, 1, 2, 1);
        rack.sendAt(1600 * US, 1, 2, 2);
        rack.sendAt(4 * MS, 1, 2, 3);
        rack.sim.runUntil(10 * MS);
        ProbeNode p = rack.probe(2);
        assertEquals(List.of(1L, 2L, 3L), p.numbers());
        assertEquals(List.of(3 * MS, 3 * MS, 4 * MS + 2 * US),
                p.received.stream().map(ProbeNode.Received::timeNanos).toList());
        assertEquals(List.of(3 * MS), p.timerTimes, "the timer due during the pause fires at its end");
        assertEquals(1, p.starts, "a pause keeps the node's state: no restart");
    }

    @Test
    void framesCrossTwoCabledSwitches() {
        Simulation sim = Simulation.builder(59).defaultFaults(LinkFaults.fixedDelay(5 * US)).out(null).build();
        int ip1 = dev.innet.wire.RackAddressing.hostIp(1);
        int ip2 = dev.innet.wire.RackAddressing.hostIp(2);
        SimSwitch a = sim.addSwitch("a", () -> new StaticForwardingSwitch().route(ip1, 1).route(ip2, 9));
        SimSwitch b = sim.addSwitch("b", () -> new StaticForwardingSwitch().route(ip1, 9).route(ip2, 2));
        sim.connectSwitches(a, 9, b, 9);
        List<ProbeNode> probes = new ArrayList<>();
        sim.addHost(1, () -> { ProbeNode p = new ProbeNode(); probes.add(p); return p; }, a, 1);
        sim.addHost(2, () -> { ProbeNode p = new ProbeNode(); probes.add(p); return p; }, b, 2);
        sim.atNode(0, 1, "send", n -> ((ProbeNode) n).sendTo(2, 77));
        sim.runUntil(1 * MS);
        assertEquals(List.of(77L), probes.get(1).numbers());
        assertEquals(15 * US, probes.get(1).received.get(0).timeNanos(), "three cables of 5 us");
        assertEquals(List.of("a:9>b:9", "b:9>a:9"), sim.channels().stream().map(Channel::name)
                .filter(n -> n.contains(":9>")).toList());
    }

    @Test
    void aFullChannelDropsTheTailAndTooManyPendingEventsFailTheRun() {
        StringBuilder trace = new StringBuilder();
        Rack rack = new Rack(Simulation.builder(61).maxInFlightPerChannel(10).trace(trace)
                .defaultFaults(LinkFaults.fixedDelay(1 * MS)), 2);
        rack.sim.atNode(0, 1, "burst", n -> {
            for (int i = 0; i < 20; i++) {
                ((ProbeNode) n).sendTo(2, i);
            }
        });
        rack.sim.runUntil(10 * MS);
        assertEquals(List.of(0L, 1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L), rack.probe(2).numbers());
        assertEquals(10, trace.toString().lines().filter(l -> l.contains("DROP h1>tor:1 queue full")).count());

        Simulation small = Simulation.builder(61).maxPendingEvents(50).out(null).build();
        SimSwitch tor = small.addSwitch("tor", () -> StaticForwardingSwitch.hostOnSamePort(1));
        small.addHost(1, ProbeNode::new, tor, 1);
        small.atNode(0, 1, "timer storm", n -> {
            for (int i = 0; i < 100; i++) {
                ((ProbeNode) n).ctx.timers().schedule(1 * MS);
            }
        });
        SimulationFailure f = assertThrows(SimulationFailure.class, () -> small.runUntil(10 * MS));
        assertTrue(f.getMessage().contains("more than 50 pending events"), f.getMessage());
    }

    @Test
    void aMonitorFailsTheRunAtTheFirstEventThatBreaksItsInvariant() {
        Rack rack = new Rack(Simulation.builder(67), 2);
        rack.sim.addMonitor("h2 receives at most 2 frames", () -> rack.probe(2).received.size() <= 2);
        for (int i = 0; i < 5; i++) {
            rack.sendAt(i * 100 * US, 1, 2, i);
        }
        SimulationFailure f = assertThrows(SimulationFailure.class, () -> rack.sim.runUntil(10 * MS));
        assertTrue(f.getMessage().startsWith("seed=67 t=0.000202000 event#18: "), f.getMessage());
        assertTrue(f.getMessage().contains("monitor 'h2 receives at most 2 frames' violated"), f.getMessage());
        assertEquals(3, rack.probe(2).received.size(), "the run stopped at the violating delivery");
    }
}
