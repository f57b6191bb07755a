package dev.innet.p4sim;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.innet.p4sim.v1model.P4Switch;
import dev.innet.p4sim.v1model.SwitchConfig;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.List;

/** Locates the test programs under src/test/resources/stf; builds and runs the random-program tests' programs. */
final class TestPrograms {
    private TestPrograms() { }

    static Path stf(String name) {
        try {
            return Path.of(TestPrograms.class.getResource("/stf/" + name).toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * A v1model program around one header type {@code h_t} with the given fields: {@code headers} holds
     * the given header instances, the parser extracts {@code h.h}, ingress sends to port 1 and then runs
     * {@code ingress}, the deparser runs {@code deparser}. The random-program tests build on it.
     */
    static String oneHeaderProgram(String fields, String instances, String ingress, String deparser) {
        return """
                #include <core.p4>
                #include <v1model.p4>
                header h_t {
                %FIELDS%}
                struct headers { %INSTANCES% }
                struct metadata { }
                parser P(packet_in pkt, out headers h, inout metadata m, inout standard_metadata_t sm) {
                    state start { pkt.extract(h.h); transition accept; }
                }
                control VC(inout headers h, inout metadata m) { apply { } }
                control I(inout headers h, inout metadata m, inout standard_metadata_t sm) {
                    apply {
                        sm.egress_spec = 1;
                %INGRESS%    }
                }
                control E(inout headers h, inout metadata m, inout standard_metadata_t sm) { apply { } }
                control CC(inout headers h, inout metadata m) { apply { } }
                control D(packet_out pkt, in headers h) { apply { %DEPARSER% } }
                V1Switch(P(), VC(), I(), E(), CC(), D()) main;
                """.replace("%FIELDS%", fields).replace("%INSTANCES%", instances).replace("%INGRESS%", ingress)
                .replace("%DEPARSER%", deparser);
    }

    /**
     * Compiles {@code source} for each code generator (per-node classes, then closures), sends {@code in}
     * to port 0 and asserts exactly one packet out, equal to {@code want} (hex); {@code context} names
     * the case in failure messages. Returns how many runs were checked (2).
     */
    static int assertOneOutputOnBothGenerators(String name, String source, byte[] in, String want, String context) {
        int runs = 0;
        for (boolean specialize : new boolean[] {true, false}) {
            P4Switch sw = P4Sim.compileText(name, source)
                    .instantiate(SwitchConfig.defaults().withSpecialization(specialize));
            List<P4Switch.OutPacket> out = sw.process(0, in);
            assertEquals(1, out.size(), context + "\n" + source);
            assertEquals(want, hex(out.get(0).frame()),
                    context + (specialize ? " (specialised)" : " (closures)") + "\n" + source);
            runs++;
        }
        return runs;
    }

    static byte[] hex(String s) {
        return java.util.HexFormat.of().parseHex(s.replaceAll("\\s+", ""));
    }

    static String hex(byte[] b) {
        return java.util.HexFormat.of().formatHex(b);
    }
}
