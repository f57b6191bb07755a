package dev.innet.p4sim;

import static dev.innet.p4sim.TestPrograms.hex;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.innet.p4sim.frontend.CompileError;
import dev.innet.p4sim.runtime.MemoryAccesses;
import dev.innet.p4sim.v1model.P4Switch;
import dev.innet.p4sim.v1model.SwitchConfig;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code @innet_memory("NAME")} on a register array marks NAME as touched by every data-plane read or
 * write of the array, and by nothing else: what a simulator's timing model of slower memories reads.
 */
class MemoryAccessesTest {
    /** op 1: read the fast array; op 2: also read the slow one (as a value); op 3: write the slow one; else nothing. */
    private static final String PROGRAM = """
            #include <v1model.p4>
            header h_t { bit<8> op; bit<8> idx; bit<64> v; }
            struct headers { h_t h; }
            struct metadata { }
            parser P(packet_in pkt, out headers hdr, inout metadata m, inout standard_metadata_t sm) {
                state start { pkt.extract(hdr.h); transition accept; }
            }
            control VC(inout headers hdr, inout metadata m) { apply { } }
            control I(inout headers hdr, inout metadata m, inout standard_metadata_t sm) {
                @innet_memory("fast") register<bit<64>>(4) near;
                @innet_memory("slow") register<bit<64>>(4) far;
                @innet_memory("slow") register<bit<200>>(4) far_wide;
                register<bit<64>>(4) plain;
                apply {
                    sm.egress_spec = 1;
                    plain.write((bit<32>) hdr.h.idx, hdr.h.v);
                    if (hdr.h.op == 1 || hdr.h.op == 2) {
                        near.read(hdr.h.v, (bit<32>) hdr.h.idx);
                    }
                    if (hdr.h.op == 2) {
                        hdr.h.v = hdr.h.v + far.read((bit<32>) hdr.h.idx);
                    }
                    if (hdr.h.op == 3) {
                        far_wide.write((bit<32>) hdr.h.idx, (bit<200>) hdr.h.v);
                    }
                }
            }
            control E(inout headers hdr, inout metadata m, inout standard_metadata_t sm) { apply { } }
            control CC(inout headers hdr, inout metadata m) { apply { } }
            control D(packet_out pkt, in headers hdr) { apply { pkt.emit(hdr.h); } }
            V1Switch(P(), VC(), I(), E(), CC(), D()) main;
            """;

    private static List<String> touchedBy(P4Switch sw, int op) {
        MemoryAccesses m = sw.memoryAccesses();
        m.clear();
        sw.process(0, hex(String.format("%02x01%016x", op, 7)));
        return m.touched();
    }

    @Test
    void eachPassMarksExactlyTheMemoriesItsRegisterAccessesTouched() {
        for (boolean specialize : new boolean[] {true, false}) {
            P4Switch sw = P4Sim.compileText("mem.p4", PROGRAM).instantiate(SwitchConfig.defaults().withSpecialization(specialize));
            assertEquals(List.of("fast", "slow"), sw.memoryAccesses().memories(), "declaration order, one entry per memory");
            assertEquals(List.of(), touchedBy(sw, 0), "only the unannotated register: no memory");
            assertEquals(List.of("fast"), touchedBy(sw, 1));
            assertEquals(List.of("fast", "slow"), touchedBy(sw, 2), "a read used as a value marks too");
            assertEquals(List.of("slow"), touchedBy(sw, 3), "a wide write marks its memory");
            // without a clear the marks add up
            sw.process(0, hex(String.format("%02x01%016x", 1, 7)));
            assertEquals(List.of("fast", "slow"), sw.memoryAccesses().touched());
            // the control plane's register access is not the data plane's: no mark
            sw.memoryAccesses().clear();
            sw.control().registerRead("I.far", 1);
            assertEquals(List.of(), sw.memoryAccesses().touched());
        }
    }

    @Test
    void aProgramWithoutTheAnnotationDeclaresNoMemory() {
        P4Switch sw = P4Sim.compileText("plain.p4", PROGRAM.replace("@innet_memory(\"fast\") ", "").replace("@innet_memory(\"slow\") ", ""))
                .instantiate();
        assertEquals(List.of(), sw.memoryAccesses().memories());
        assertEquals(List.of(), touchedBy(sw, 2));
    }

    @Test
    void aMalformedAnnotationIsACompileErrorAtItsPosition() {
        for (String bad : List.of("@innet_memory", "@innet_memory(\"\")", "@innet_memory(3)", "@innet_memory(\"a\", \"b\")",
                "@innet_memory(\"a\") @innet_memory(\"b\")")) {
            CompileError e = assertThrows(CompileError.class,
                    () -> P4Sim.compileText("bad.p4", PROGRAM.replace("@innet_memory(\"fast\")", bad)), bad);
            assertTrue(e.getMessage().startsWith("bad.p4:10:"), bad + ": " + e.getMessage());
            assertTrue(e.getMessage().contains("@innet_memory"), e.getMessage());
        }
    }
}
