package dev.innet.p4sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import dev.innet.p4sim.frontend.CheckedProgram;
import dev.innet.p4sim.frontend.FrontEnd;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class FrontEndTest {
    @Test
    void checksTheBasicForwardingProgram() throws Exception {
        Path p = Path.of(FrontEndTest.class.getResource("/stf/basic.p4").toURI());
        CheckedProgram cp = FrontEnd.check(p, List.of());
        assertEquals("MyIngress", cp.ingress().name);
        assertEquals("struct headers", cp.headersType().toString());
        assertNotNull(cp.errorType());
        assertEquals(true, cp.errorType().members().contains("NoMatch"));
    }
}
