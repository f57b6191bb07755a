package dev.innet.p4sim;

import static dev.innet.p4sim.TestPrograms.hex;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.innet.p4sim.cli.CliSession;
import dev.innet.p4sim.ports.AfPacketPort;
import dev.innet.p4sim.ports.LiveSwitch;
import dev.innet.p4sim.v1model.P4Switch;
import java.util.Arrays;
import java.util.List;
import dev.innet.p4sim.ports.PortFaults;
import dev.innet.p4sim.ports.RingPoller;
import dev.innet.p4sim.ports.RingPort;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * p4sim on real Linux interfaces: two veth pairs, the switch on one end of each, frames sent and
 * received through AF_PACKET on the other ends. Skipped (with the reason) where veth pairs cannot be
 * created, e.g. without CAP_NET_ADMIN.
 */
class AfPacketTest {
    private static boolean ip(String... args) throws Exception {
        String[] cmd = new String[args.length + 1];
        cmd[0] = "ip";
        System.arraycopy(args, 0, cmd, 1, args.length);
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        p.getInputStream().readAllBytes();
        return p.waitFor() == 0;
    }

    /** Both ways of moving frames; with faults on the output port, a duplicated frame arrives twice. */
    @ParameterizedTest
    @EnumSource(LiveSwitch.Io.class)
    void forwardsBetweenVethPairs(LiveSwitch.Io io) throws Exception {
        String tag = Long.toHexString(ProcessHandle.current().pid() & 0xFFFF);
        String h1 = "p4s" + tag + "h1";
        String s1 = "p4s" + tag + "s1";
        String h4 = "p4s" + tag + "h4";
        String s4 = "p4s" + tag + "s4";
        boolean created;
        try {
            created = ip("link", "add", h1, "type", "veth", "peer", "name", s1)
                    && ip("link", "add", h4, "type", "veth", "peer", "name", s4);
        } catch (java.io.IOException noIpTool) {
            created = false;
        }
        Assumptions.assumeTrue(created, "cannot create veth pairs here (needs the ip tool and CAP_NET_ADMIN)");
        try {
            for (String n : List.of(h1, s1, h4, s4)) {
                assertTrue(ip("link", "set", "dev", n, "up"), "bring up " + n);
            }
            P4Switch sw = P4Sim.compile(TestPrograms.stf("basic.p4")).instantiate();
            new CliSession(sw).execute("table_add MyIngress.ipv4_lpm MyIngress.ipv4_forward 10.0.1.5/32 => 0a:0b:0c:0d:0e:0f 4");
            java.io.ByteArrayOutputStream log = new java.io.ByteArrayOutputStream();
            try (LiveSwitch live = new LiveSwitch(sw, sw, io, new java.io.PrintStream(log, true));
                 AfPacketPort host1 = new AfPacketPort(h1, 2048);
                 RingPort host4 = new RingPort(h4, RingPort.Geometry.forMaxFrame(2048))) {
                live.attach(1, s1);
                live.attach(4, s4);
                PortFaults faults = live.enableFaults(7);
                live.start();
                assertEquals(io, live.io(), "fell back: " + log);
                byte[] frame = hex("00000000000100000000000208004500001c00004000401125cb0a0000020a0001051111222233334444");
                byte[] expected = hex("0a0b0c0d0e0f00000000000108004500001c000040003f1126cb0a0000020a0001051111222233334444");
                host1.send(frame, 0, frame.length);
                assertEquals(1, arrivals(host4, expected, 1), "forwarded frame on " + h4 + "; " + sw.stats());
                faults.execute("4 dup=100");
                host1.send(frame, 0, frame.length);
                assertEquals(2, arrivals(host4, expected, 2), "duplicated frame on " + h4 + "; " + sw.stats());
                assertEquals(0, live.sendErrors());
            }
        } finally {
            ip("link", "del", h1);
            ip("link", "del", h4);
        }
    }

    /** A ring the kernel refuses (a block that is not a whole number of pages) is a RingsUnavailable naming the option. */
    @org.junit.jupiter.api.Test
    void aRefusedRingSaysWhich() throws Exception {
        String tag = Long.toHexString(ProcessHandle.current().pid() & 0xFFFF);
        String h = "p4s" + tag + "r1";
        boolean created;
        try {
            created = ip("link", "add", h, "type", "veth", "peer", "name", "p4s" + tag + "r2");
        } catch (java.io.IOException noIpTool) {
            created = false;
        }
        Assumptions.assumeTrue(created, "cannot create veth pairs here (needs the ip tool and CAP_NET_ADMIN)");
        try {
            RingPort.RingsUnavailable e = org.junit.jupiter.api.Assertions.assertThrows(RingPort.RingsUnavailable.class,
                    () -> new RingPort(h, new RingPort.Geometry(6000, 4, 2048, 16, 1)));
            assertTrue(e.getMessage().contains("PACKET_RX_RING") && e.getMessage().contains(h), e.getMessage());
        } finally {
            ip("link", "del", h);
        }
    }

    /** Where the kernel refuses the rings, the switch says so on its log, runs on plain sockets and still forwards. */
    @org.junit.jupiter.api.Test
    void fallsBackToSocketsWhenRingsAreRefused() throws Exception {
        String tag = Long.toHexString(ProcessHandle.current().pid() & 0xFFFF);
        String h1 = "p4s" + tag + "f1";
        String s1 = "p4s" + tag + "g1";
        String h4 = "p4s" + tag + "f4";
        String s4 = "p4s" + tag + "g4";
        boolean created;
        try {
            created = ip("link", "add", h1, "type", "veth", "peer", "name", s1)
                    && ip("link", "add", h4, "type", "veth", "peer", "name", s4);
        } catch (java.io.IOException noIpTool) {
            created = false;
        }
        Assumptions.assumeTrue(created, "cannot create veth pairs here (needs the ip tool and CAP_NET_ADMIN)");
        try {
            for (String n : List.of(h1, s1, h4, s4)) {
                assertTrue(ip("link", "set", "dev", n, "up"), "bring up " + n);
            }
            P4Switch sw = P4Sim.compile(TestPrograms.stf("basic.p4")).instantiate();
            new CliSession(sw).execute("table_add MyIngress.ipv4_lpm MyIngress.ipv4_forward 10.0.1.5/32 => 0a:0b:0c:0d:0e:0f 4");
            java.io.ByteArrayOutputStream log = new java.io.ByteArrayOutputStream();
            RingPort.Geometry refused = new RingPort.Geometry(6000, 4, 2048, 16, 1); // blocks must be whole pages
            try (LiveSwitch live = new LiveSwitch(sw, sw, LiveSwitch.Io.RING, new java.io.PrintStream(log, true), refused);
                 AfPacketPort host1 = new AfPacketPort(h1, 2048);
                 RingPort host4 = new RingPort(h4, RingPort.Geometry.forMaxFrame(2048))) {
                live.attach(1, s1);
                live.attach(4, s4);
                live.start();
                assertEquals(LiveSwitch.Io.SOCKET, live.io());
                assertEquals(1, log.toString().lines().count(), "one message: " + log);
                assertTrue(log.toString().contains("memory-mapped packet rings are unavailable")
                        && log.toString().contains("PACKET_RX_RING") && log.toString().contains("plain AF_PACKET sockets"), log.toString());
                byte[] frame = hex("00000000000100000000000208004500001c00004000401125cb0a0000020a0001051111222233334444");
                byte[] expected = hex("0a0b0c0d0e0f00000000000108004500001c000040003f1126cb0a0000020a0001051111222233334444");
                host1.send(frame, 0, frame.length);
                assertEquals(1, arrivals(host4, expected, 1), "forwarded frame on " + h4 + "; " + sw.stats());
            }
        } finally {
            ip("link", "del", h1);
            ip("link", "del", h4);
        }
    }

    /** Copies of {@code expected} arriving on {@code port}: waits up to 5 s for {@code want}, then 200 ms for extras. */
    private static int arrivals(RingPort port, byte[] expected, int want) throws Exception {
        int[] seen = new int[1];
        RingPort.Receiver match = (ring, off, len) -> {
            byte[] got = ring.asSlice(off, Math.min(len, expected.length)).toArray(java.lang.foreign.ValueLayout.JAVA_BYTE);
            // the kernel may also send its own frames (IPv6 neighbour discovery) on new links
            if (Arrays.equals(got, expected)) {
                seen[0]++;
            }
        };
        long deadline = System.nanoTime() + 5_000_000_000L;
        boolean extraWait = false;
        try (RingPoller poller = new RingPoller(List.of(port))) {
            while (System.nanoTime() < deadline) {
                if (port.drain(match, 8) == 0) {
                    poller.await(10);
                }
                if (seen[0] >= want && !extraWait) {
                    extraWait = true;
                    deadline = System.nanoTime() + 200_000_000L;
                }
            }
        }
        return seen[0];
    }
}
