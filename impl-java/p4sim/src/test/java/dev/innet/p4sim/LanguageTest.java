package dev.innet.p4sim;

import static dev.innet.p4sim.TestPrograms.hex;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.innet.p4sim.runtime.ActionRuntime;
import dev.innet.p4sim.runtime.TableRuntime;
import dev.innet.p4sim.v1model.P4Switch;
import dev.innet.p4sim.v1model.SwitchConfig;
import dev.innet.switchapi.ControlException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Language constructs whose effect is not a packet: control-plane names, loop limits, include resolution. */
class LanguageTest {
    @Test
    void controlPlaneNamesFollowNameAnnotations() {
        P4Switch sw = P4Sim.compile(TestPrograms.stf("names.p4")).instantiate();
        TableRuntime fwd = sw.tableRuntime("I.fwd");
        assertEquals("I.fwd", fwd.name);
        assertEquals(List.of("dst"), Arrays.asList(fwd.keyNames));
        assertEquals(List.of("I.set_port", "drop_it"), Arrays.stream(fwd.actions).map(a -> a.name).toList());
        ActionRuntime setPort = fwd.action("I.set_port");
        assertEquals(List.of("port"), Arrays.asList(setPort.paramNames));
        assertEquals("global_t", sw.tableRuntime("global_t").name);
        assertEquals("mark", sw.tableRuntime("global_t").action("mark").name);
        // the source names are not control-plane names any more
        assertThrows(ControlException.class, () -> sw.tableRuntime("I.t"));
        assertThrows(ControlException.class, () -> sw.tableRuntime("I.t2"));
        assertThrows(ControlException.class, () -> sw.control().registerRead("I.r", 0));
        assertEquals(BigInteger.ZERO, sw.control().registerRead("I.hits", 0));
        assertEquals(BigInteger.ZERO, sw.control().registerRead("seen", 0));
    }

    @Test
    void aLoopThatDoesNotEndStopsAfterTheIterationLimit() {
        String program = """
                #include <core.p4>
                #include <v1model.p4>
                header h_t { bit<32> n; }
                struct headers { h_t h; }
                struct metadata { }
                parser P(packet_in pkt, out headers hdr, inout metadata m, inout standard_metadata_t sm) {
                    state start { pkt.extract(hdr.h); transition accept; }
                }
                control VC(inout headers hdr, inout metadata m) { apply { } }
                control I(inout headers hdr, inout metadata m, inout standard_metadata_t sm) {
                    apply {
                        sm.egress_spec = 1;
                        for (;;) { hdr.h.n += 1; }
                        for (bit<32> i = 0; true; i = i + 1) { if (i == 3) { continue; } hdr.h.n += 1; }
                    }
                }
                control E(inout headers hdr, inout metadata m, inout standard_metadata_t sm) { apply { } }
                control CC(inout headers hdr, inout metadata m) { apply { } }
                control D(packet_out pkt, in headers hdr) { apply { pkt.emit(hdr.h); } }
                V1Switch(P(), VC(), I(), E(), CC(), D()) main;
                """;
        for (boolean specialize : new boolean[] {true, false}) {
            P4Switch sw = P4Sim.compileText("loop.p4", program).instantiate(SwitchConfig.defaults().withSpecialization(specialize));
            List<P4Switch.OutPacket> out = sw.process(0, hex("00000000"));
            assertEquals(1, out.size());
            // 65536 iterations of the first loop, 65535 of the second (one continue)
            assertArrayEquals(hex("0001ffff"), out.get(0).frame());
        }
    }

    @Test
    void aQuotedIncludeFindsALocalFileBeforeThePrelude(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("core.p4"), "#define LOCAL_CORE 1\n");
        Files.writeString(dir.resolve("prog.p4"), """
                #include "core.p4"
                #ifndef LOCAL_CORE
                #error "the local core.p4 was not used"
                #endif
                """);
        // the local core.p4 declares nothing, so the program has no main: the error shows it was read
        CompileErrorMessage.assertMessage("program has no 'V1Switch(...) main;' instantiation",
                () -> P4Sim.compile(dir.resolve("prog.p4")));
    }

    /** Compile errors carry file:line:col; only the message part is compared here. */
    private static final class CompileErrorMessage {
        static void assertMessage(String expected, org.junit.jupiter.api.function.Executable ex) {
            dev.innet.p4sim.frontend.CompileError e = assertThrows(dev.innet.p4sim.frontend.CompileError.class, ex);
            String msg = e.getMessage();
            assertEquals(expected, msg.substring(msg.indexOf("error: ") + "error: ".length()));
        }
    }
}
