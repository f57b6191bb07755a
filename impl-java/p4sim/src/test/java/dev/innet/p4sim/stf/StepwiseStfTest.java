package dev.innet.p4sim.stf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.innet.p4sim.P4Sim;
import dev.innet.p4sim.v1model.P4Switch;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class StepwiseStfTest {
    static final String ROUTE = "add ipv4_lpm hdr.ipv4.dstAddr:0x0a000105/32 ipv4_forward(dstAddr:0x0a0b0c0d0e0f, port:4)";
    /** An IPv4 packet that the route sends to port 4, and what comes out there (TTL 0x40 -> 0x3f). */
    static final String PACKET = "packet 1 00000000000100000000000208004500001c00004000401125cb0a0000020a0001051111222233334444";
    static final String EXPECT = "expect 4 0a0b0c0d0e0f00000000000108004500001c000040003f1126cb0a0000020a0001051111222233334444$";

    static P4Switch basic() throws Exception {
        return P4Sim.compile(Path.of(StepwiseStfTest.class.getResource("/stf/basic.p4").toURI())).instantiate();
    }

    @Test
    void passingScriptCountsItsSteps() throws Exception {
        String script = String.join("\n", ROUTE, "# step 1", PACKET, EXPECT, "# step 2", PACKET, EXPECT);
        StepwiseStf.Outcome o = StepwiseStf.run(basic(), "s.stf", script);
        assertEquals(2, o.steps());
        assertTrue(o.failure().isEmpty(), o.toString());
    }

    @Test
    void anUnexpectedPacketIsAttributedToItsStepNotToTheEndOfTheFile() throws Exception {
        // step 2 sends a packet that nothing expects; steps 3 and 4 are fine
        String script = String.join("\n", ROUTE, "# step 1", PACKET, EXPECT, "# step 2", PACKET,
                "# step 3", PACKET, EXPECT, "# step 4", PACKET, EXPECT);
        StepwiseStf.Outcome o = StepwiseStf.run(basic(), "s.stf", script);
        assertEquals(2, o.failure().orElseThrow().step());
        assertEquals(List.of("s.stf:6: unexpected packet on port 4: "
                + "0a0b0c0d0e0f00000000000108004500001c000040003f1126cb0a0000020a0001051111222233334444"), o.failure().get().messages());
        // the same script matched as a whole only fails at its last line, which is why steps are matched one by one
        List<String> whole = new StfRunner(basic()).run("s.stf", script);
        assertEquals(1, whole.size(), whole.toString());
        assertTrue(whole.get(0).startsWith("s.stf:12: unexpected packet on port 4"), whole.get(0));
    }

    @Test
    void commandsBeforeTheFirstMarkerAreStepZero() throws Exception {
        StepwiseStf.Outcome o = StepwiseStf.run(basic(), "s.stf", String.join("\n", "add no_such_table k:1 a()", "# step 1", PACKET));
        assertEquals(0, o.failure().orElseThrow().step());
        assertTrue(o.failure().get().messages().get(0).startsWith("s.stf:1: "), o.toString());
    }
}
