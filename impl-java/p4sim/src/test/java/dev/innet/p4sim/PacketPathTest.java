package dev.innet.p4sim;

import static dev.innet.p4sim.TestPrograms.hex;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.innet.switchapi.Digest;
import dev.innet.switchapi.PacketIn;
import dev.innet.p4sim.v1model.P4Switch;
import dev.innet.p4sim.v1model.SwitchConfig;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** v1model paths the STF files cannot express: CPU port, packet-out, digests, loop limits, garbage input. */
class PacketPathTest {
    private static P4Switch packetPath() {
        return P4Sim.compile(TestPrograms.stf("packetpath.p4")).instantiate(SwitchConfig.defaults().withCpuPort(255));
    }

    @Test
    void packetsForTheCpuPortBecomePacketIns() {
        P4Switch sw = packetPath();
        List<PacketIn> ins = new ArrayList<>();
        sw.control().onPacketIn(ins::add);
        List<P4Switch.OutPacket> out = sw.process(1, hex("000000000001 000000000009 0007 abcd"));
        assertEquals(List.of(), out);
        assertEquals(1, ins.size());
        assertEquals("0000000000010000000000090007" + "00" + "0000" + "ff" + "0000" + "abcd", hex(ins.get(0).frame()));
        assertEquals(1, sw.stats().packetIns);
    }

    @Test
    void packetOutEntersOnTheCpuPort() {
        P4Switch sw = packetPath();
        List<P4Switch.OutPacket> out = new ArrayList<>();
        sw.packetOut(hex("000000000001 000000000009 0001 ab"),
                (port, buf, off, len) -> out.add(new P4Switch.OutPacket(port, java.util.Arrays.copyOfRange(buf, off, off + len))));
        assertEquals(1, out.size());
        assertEquals(2, out.get(0).port());
    }

    @Test
    void digestsReachSubscribersWithFieldValues() {
        P4Switch sw = packetPath();
        List<Digest> ds = new ArrayList<>();
        sw.control().onDigest(ds::add);
        sw.process(1, hex("000000000001 0000000000aa 0009 abcd"));
        assertEquals(List.of(new Digest(1, List.of(BigInteger.valueOf(0xaa), BigInteger.valueOf(9)))), ds);
    }

    @Test
    void endlessResubmissionStopsAtTheLimit() {
        P4Switch sw = packetPath();
        List<P4Switch.OutPacket> out = sw.process(1, hex("000000000001 000000000009 000a abcd"));
        assertEquals(List.of(), out);
        assertEquals(SwitchConfig.defaults().maxPassesPerPacket(), sw.stats().resubmitted - 1);
        assertEquals(1, sw.stats().loopLimitDrops);
    }

    @Test
    void missingCloneSessionAndMulticastGroupAreCounted() {
        P4Switch sw = packetPath();
        sw.process(1, hex("000000000001 000000000009 0004 abcd"));
        sw.process(1, hex("000000000001 000000000009 0003 abcd"));
        assertEquals(1, sw.stats().cloneSessionMissing);
        assertEquals(1, sw.stats().multicastGroupMissing);
    }

    /** Truncated and random frames never crash the switch; every one is accounted for. */
    @Test
    void garbageFramesAreSurvivedAndCounted() {
        for (String program : List.of("parser.p4", "basic.p4", "tables.p4", "externs.p4")) {
            P4Switch sw = P4Sim.compile(TestPrograms.stf(program)).instantiate();
            SplittableRandom rnd = new SplittableRandom(42);
            int frames = 3000;
            long outputs = 0;
            for (int i = 0; i < frames; i++) {
                byte[] f = new byte[rnd.nextInt(0, 80)];
                rnd.nextBytes(f);
                outputs += sw.process(rnd.nextInt(0, 8), f).size();
            }
            byte[] big = new byte[20000];
            sw.process(0, big);
            assertEquals(frames + 1, sw.stats().received, program);
            assertEquals(1, sw.stats().oversize, program);
            assertTrue(sw.stats().parserErrors > 0, program + ": random frames should hit parser errors");
            assertEquals(outputs, sw.stats().transmitted, program);
            assertEquals(frames, sw.stats().transmitted + sw.stats().dropped + sw.stats().packetIns, program + " " + sw.stats());
        }
    }
}
