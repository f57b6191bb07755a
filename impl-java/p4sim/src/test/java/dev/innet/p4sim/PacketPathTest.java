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

    /**
     * What each pass sees of where and when the packet arrived, as bmv2's simple_switch.cpp sets it: only
     * {@code receive_} writes {@code ingress_port} and {@code ingress_global_timestamp}; resubmitted,
     * recirculated and cloned copies start from {@code reset_metadata()} plus their field list, so both read 0
     * there. The I2E clone's parse is the exception: bmv2 sets {@code ingress_port} for it, then resets.
     * The program arrives on port 3 at time 1000; {@code eth.type} picks the path. Egress appends
     * {@code itype, ingress_port (16 bits), timestamp is 0, the port the parser saw (16 bits)}.
     */
    private static final String ARRIVAL_PROGRAM = """
            #include <core.p4>
            #include <v1model.p4>
            header eth_t { bit<48> dst; bit<48> src; bit<16> type; }
            header seen_t { bit<8> itype; bit<16> port; bit<8> tsZero; bit<16> parsedPort; }
            struct headers { eth_t eth; seen_t seen; }
            struct metadata { @field_list(1) bit<8> stage; }
            parser P(packet_in pkt, out headers h, inout metadata m, inout standard_metadata_t sm) {
                state start {
                    pkt.extract(h.eth);
                    h.seen.setValid();
                    h.seen.parsedPort = (bit<16>) sm.ingress_port;
                    transition accept;
                }
            }
            control VC(inout headers h, inout metadata m) { apply { } }
            control I(inout headers h, inout metadata m, inout standard_metadata_t sm) {
                apply {
                    sm.egress_spec = 2;
                    h.seen.itype = (bit<8>) sm.instance_type;
                    h.seen.port = (bit<16>) sm.ingress_port;
                    h.seen.tsZero = sm.ingress_global_timestamp == 0 ? 8w1 : 8w0;
                    if (h.eth.type == 1 && sm.instance_type == 0) {
                        resubmit_preserving_field_list(1);
                    } else if (h.eth.type == 3) {
                        clone_preserving_field_list(CloneType.I2E, 7, 1);
                    }
                }
            }
            control E(inout headers h, inout metadata m, inout standard_metadata_t sm) {
                apply {
                    if (h.eth.type == 2 && m.stage == 0) {
                        m.stage = 1;
                        recirculate_preserving_field_list(1);
                    } else if (h.eth.type == 4 && sm.instance_type == 0) {
                        clone_preserving_field_list(CloneType.E2E, 7, 1);
                    }
                    if (sm.instance_type == 1 || sm.instance_type == 2) {
                        h.seen.itype = (bit<8>) sm.instance_type;
                        h.seen.port = (bit<16>) sm.ingress_port;
                        h.seen.tsZero = sm.ingress_global_timestamp == 0 ? 8w1 : 8w0;
                    }
                }
            }
            control CC(inout headers h, inout metadata m) { apply { } }
            control D(packet_out pkt, in headers h) { apply { pkt.emit(h.eth); pkt.emit(h.seen); } }
            V1Switch(P(), VC(), I(), E(), CC(), D()) main;
            """;

    private static List<String> arrivals(int type) {
        SwitchConfig config = new SwitchConfig(1, 255, 9216, 16, () -> 1000L, true, false);
        P4Switch sw = P4Sim.compileText("arrival.p4", ARRIVAL_PROGRAM).instantiate(config);
        sw.control().cloneSessionSet(7, 4);
        List<String> seen = new ArrayList<>();
        for (P4Switch.OutPacket p : sw.process(3, hex("000000000001 000000000009 000" + type))) {
            String h = hex(p.frame());
            seen.add(p.port() + ":" + h.substring(28));
        }
        java.util.Collections.sort(seen);
        return seen;
    }

    @Test
    void onlyANewPacketShowsItsIngressPortAndArrivalTime() {
        // itype(1) port(2) tsZero(1) parsedPort(2): a new packet shows port 3 and the time, in parser and ingress
        assertEquals(List.of("2:00" + "0003" + "00" + "0003"), arrivals(0));
        // resubmit: the second pass, parser included, reads 0 for both
        assertEquals(List.of("2:06" + "0000" + "01" + "0000"), arrivals(1));
        // recirculate: likewise (the appended header of the first pass follows as payload)
        assertEquals(List.of("2:04" + "0000" + "01" + "0000" + "00" + "0003" + "00" + "0003"), arrivals(2));
        // I2E clone: parsed again with the arrival port, then metadata reset: egress reads 0; the original is unchanged
        assertEquals(List.of("2:00" + "0003" + "00" + "0003", "4:01" + "0000" + "01" + "0003"), arrivals(3));
        // E2E clone: egress's headers, metadata reset
        assertEquals(List.of("2:00" + "0003" + "00" + "0003", "4:02" + "0000" + "01" + "0003"), arrivals(4));
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
