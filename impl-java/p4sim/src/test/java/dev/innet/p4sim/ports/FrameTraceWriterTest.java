package dev.innet.p4sim.ports;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.innet.wire.InnetMessage;
import dev.innet.wire.RackAddressing;
import dev.innet.wire.UdpFrame;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * p4sim's --trace-frames writer: the simulated rack's switchIn/switchOut lines (host 0), for client messages
 * only, each stamped by the clock as the pipeline reaches it and on disk before the call returns.
 */
class FrameTraceWriterTest {
    private static final int CLIENT = 3;
    private static final int SERVER = 1;
    private static final int PUT = 0x02;
    private static final int PUT_REPLY = 0x82;
    private static final int PUT_SEQ = 0x12;

    private static byte[] frame(int from, int to, int op, long reqId) {
        InnetMessage m = InnetMessage.of(op, reqId, InnetMessage.key("user1"), 0, "v".getBytes(StandardCharsets.UTF_8));
        return new UdpFrame(RackAddressing.hostMac(to), RackAddressing.hostMac(from), RackAddressing.hostIp(from),
                RackAddressing.hostIp(to), 5009, 5008, m.encode()).encode();
    }

    @Test
    void writesTheSimulatedRacksLinesForClientMessagesOnly() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        AtomicLong clock = new AtomicLong(1_000);
        FrameTraceWriter w = new FrameTraceWriter(new PrintStream(bytes, false, StandardCharsets.UTF_8), List.of(CLIENT, 4),
                clock::incrementAndGet, System.err);
        // a client's write in the middle of a larger buffer (a ring slot), its numbered copy to the server, the reply
        byte[] request = frame(CLIENT, SERVER, PUT, 7);
        byte[] slot = new byte[request.length + 10];
        System.arraycopy(request, 0, slot, 5, request.length);
        w.received(2, slot, 5, request.length);
        byte[] toServer = frame(CLIENT, SERVER, PUT_SEQ, 7);
        w.emitted(0, toServer, 0, toServer.length);
        byte[] reply = frame(SERVER, CLIENT, PUT_REPLY, 7);
        w.received(0, reply, 0, reply.length);
        w.emitted(2, reply, 0, reply.length);
        // not innet messages: nothing
        w.received(2, new byte[] {1, 2, 3}, 0, 3);
        assertEquals(List.of(
                        "{\"time\":1001,\"host\":0,\"incarnation\":0,\"event\":\"switchIn\",\"client\":3,\"reqId\":7,\"op\":2}",
                        "{\"time\":1003,\"host\":0,\"incarnation\":0,\"event\":\"switchOut\",\"client\":3,\"reqId\":7,\"op\":130}"),
                bytes.toString(StandardCharsets.UTF_8).lines().toList());
    }

    /**
     * {@code --trace-udp-frames} (with {@code --trace-switch}): every UDP frame between rack hosts, servers' included,
     * and the frames sent in a step carry the stamp of the frame processed, so that a merge by time keeps the step
     * together (tracecheck's SwitchUdpSteps reads a switchUdpIn and the switchUdpOut lines right after it).
     */
    @Test
    void udpFramesOfAStepShareTheInputsStampAndNameTheSwitch() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        AtomicLong clock = new AtomicLong(100);
        FrameTraceWriter w = new FrameTraceWriter(new PrintStream(bytes, false, StandardCharsets.UTF_8),
                new FrameTraceWriter.Options(List.of(CLIENT), true, "leaf1"), clock::incrementAndGet, System.err);
        byte[] reply = frame(SERVER, CLIENT, PUT_REPLY, 7);
        w.received(1, reply, 0, reply.length);
        w.emitted(3, reply, 0, reply.length);
        byte[] toServer = frame(CLIENT, SERVER, PUT_SEQ, 8);
        w.received(3, toServer, 0, toServer.length);
        w.emitted(1, toServer, 0, toServer.length);
        w.received(2, new byte[] {1, 2, 3}, 0, 3); // not a UDP frame: nothing
        List<String> lines = bytes.toString(StandardCharsets.UTF_8).lines().toList();
        assertEquals(4, lines.size(), lines.toString());
        assertTrue(lines.get(0).startsWith("{\"time\":101,\"host\":0,\"incarnation\":0,\"event\":\"switchUdpIn\",\"src\":1,\"dst\":3,"),
                lines.get(0));
        assertTrue(lines.get(1).startsWith("{\"time\":101,\"host\":0,\"incarnation\":0,\"event\":\"switchUdpOut\",\"src\":1,\"dst\":3,"),
                lines.get(1));
        assertTrue(lines.get(2).startsWith("{\"time\":102,") && lines.get(3).startsWith("{\"time\":102,"), lines.toString());
        for (String l : lines) {
            assertTrue(l.endsWith(",\"switch\":\"leaf1\"}"), l);
        }
    }

    /**
     * A restarted switch appends to its predecessor's file, and first records the crash it replaces ({@code switchCrash},
     * the simulator's event), before any frame of its own; a switch starting on an empty file records none.
     */
    @Test
    void eachLineIsInTheFileWhenTheCallReturnsAndARestartAppendsAfterItsCrash(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("trace-events").resolve("h0.ndjson");
        FrameTraceWriter first = FrameTraceWriter.appendingTo(file, List.of(CLIENT), System.err);
        assertEquals(List.of(), Files.readAllLines(file), "a first switch records no crash");
        byte[] request = frame(CLIENT, SERVER, PUT, 1);
        first.received(2, request, 0, request.length);
        // not closed: what a kill -9 leaves
        assertEquals(1, Files.readAllLines(file).size(), "the line is written before received() returns");
        FrameTraceWriter second = FrameTraceWriter.appendingTo(file, List.of(CLIENT), System.err);
        byte[] next = frame(CLIENT, SERVER, PUT, 2);
        second.received(2, next, 0, next.length);
        List<String> lines = Files.readAllLines(file);
        assertEquals(3, lines.size(), "a restarted switch appends: " + lines);
        assertTrue(lines.get(1).contains("\"host\":0") && lines.get(1).contains("\"event\":\"switchCrash\""), lines.get(1));
        assertFalse(lines.get(1).contains("\"switch\""), "an unnamed switch's crash names none: " + lines.get(1));
        assertTrue(lines.get(2).contains("\"reqId\":2"), lines.get(2));
        long[] stamps = lines.stream().mapToLong(l -> Long.parseLong(l.replaceAll("^\\{\"time\":(\\d+),.*", "$1"))).toArray();
        assertTrue(stamps[0] <= stamps[1] && stamps[1] <= stamps[2] && stamps[2] <= System.nanoTime(),
                "stamped with System.nanoTime, the crash before the new switch's frames: " + lines);
        first.close();
        second.close();
        FrameTraceWriter named = FrameTraceWriter.appendingTo(file, new FrameTraceWriter.Options(List.of(CLIENT), true, "spine1"),
                System.err);
        named.close();
        String last = Files.readAllLines(file).getLast();
        assertTrue(last.contains("\"event\":\"switchCrash\"") && last.contains("\"switch\":\"spine1\""), last);
    }

    /**
     * A control-plane write applied through the CLI port is a {@code switchControl} line (the command's name
     * only), stamped like the frames; reads and dumps change nothing and are not written.
     */
    @Test
    void aControlWriteIsAStampedSwitchControlLineAndReadsAreNot() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        AtomicLong clock = new AtomicLong(50);
        FrameTraceWriter w = new FrameTraceWriter(new PrintStream(bytes, false, StandardCharsets.UTF_8), List.of(CLIENT),
                clock::incrementAndGet, System.err);
        w.applied("register_write MyIngress.valid 3 1");
        assertEquals(List.of("{\"time\":51,\"host\":0,\"incarnation\":0,\"event\":\"switchControl\",\"command\":\"register_write\"}"),
                bytes.toString(StandardCharsets.UTF_8).lines().toList());
        for (String write : List.of("table_add MyIngress.t a 1 =>", "table_delete MyIngress.t 4", "table_modify t a 4 =>",
                "table_set_default t a", "table_clear t", "register_reset r", "counter_reset c", "mirroring_add 100 5",
                "mc_mgrp_create 1", "reset_state", "act_prof_create_member p a", "pvs_add v 1",
                "p4sim_register_write r 0 3 0x1", "p4sim_table_add t a 1 => 2", "p4sim_table_delete t 1",
                "p4sim_table_modify t a 1 => 3", "p4sim_table_indirect_add t 1 => 0", "p4sim_direct_meter_set t 1:1 2:2 1",
                "p4sim_mc_group_set 3 1:2", "p4sim_mc_group_delete 3")) {
            assertTrue(dev.innet.p4sim.cli.ControlServerWrites.isWrite(write), write);
        }
        for (String read : List.of("register_read r 1", "table_dump t", "table_num_entries t", "counter_read c 1", "help",
                "mc_dump", "act_prof_dump p", "show_tables", "p4sim_register_read r 0 3", "p4sim_table_read t",
                "p4sim_table_default t", "p4sim_counter_read c 1", "p4sim_direct_counter_read t 1",
                // a packet-out is a frame: p4sim traces it as the switch receiving it, not as a control write
                "p4sim_packet_out 00")) {
            assertFalse(dev.innet.p4sim.cli.ControlServerWrites.isWrite(read), read);
        }
    }
}
