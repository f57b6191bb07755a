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
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

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

    @Test
    void forwardsBetweenVethPairs() throws Exception {
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
            try (LiveSwitch live = new LiveSwitch(sw, sw);
                 AfPacketPort host1 = new AfPacketPort(h1, 2048);
                 AfPacketPort host4 = new AfPacketPort(h4, 2048)) {
                live.attach(1, s1);
                live.attach(4, s4);
                live.start();
                byte[] frame = hex("00000000000100000000000208004500001c00004000401125cb0a0000020a0001051111222233334444");
                byte[] expected = hex("0a0b0c0d0e0f00000000000108004500001c000040003f1126cb0a0000020a0001051111222233334444");
                host1.send(frame, 0, frame.length);
                byte[] buf = new byte[2048];
                long deadline = System.nanoTime() + 5_000_000_000L;
                boolean seen = false;
                while (!seen && System.nanoTime() < deadline) {
                    int n = host4.receive(buf);
                    // the kernel may also send its own frames (IPv6 neighbour discovery) on new links
                    seen = n >= expected.length && Arrays.equals(Arrays.copyOf(buf, expected.length), expected);
                }
                assertTrue(seen, "forwarded frame did not arrive on " + h4 + "; " + sw.stats());
                assertEquals(0, live.sendErrors());
            }
        } finally {
            ip("link", "del", h1);
            ip("link", "del", h4);
        }
    }
}
