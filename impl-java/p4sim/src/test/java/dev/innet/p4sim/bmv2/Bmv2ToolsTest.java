package dev.innet.p4sim.bmv2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Finding bmv2's tools on a search path, and the command lines the driver gives them. */
class Bmv2ToolsTest {
    @TempDir
    Path dir;

    private Path tool(String name) throws Exception {
        Path p = dir.resolve(name);
        Files.writeString(p, "#!/bin/sh\n");
        p.toFile().setExecutable(true);
        return p;
    }

    @Test
    void missingToolsAreEachNamedWithWhereToGetThem() {
        Bmv2Tools.Missing e = assertThrows(Bmv2Tools.Missing.class, () -> Bmv2Tools.find(dir.toString()));
        for (String want : List.of("p4c (p4c-bm2-ss or p4c", "p4lang/p4c", "simple_switch (install bmv2",
                "p4lang/behavioral-model", "simple_switch_CLI", "use --target p4sim")) {
            assertTrue(e.getMessage().contains(want), e.getMessage());
        }
    }

    @Test
    void onlyTheMissingToolIsNamed() throws Exception {
        tool("p4c");
        tool("simple_switch_CLI");
        Bmv2Tools.Missing e = assertThrows(Bmv2Tools.Missing.class, () -> Bmv2Tools.find(dir.toString()));
        assertTrue(e.getMessage().contains("simple_switch (install bmv2"), e.getMessage());
        assertFalse(e.getMessage().contains("p4c (p4c-bm2-ss"), e.getMessage());
        assertFalse(e.getMessage().contains("simple_switch_CLI"), e.getMessage());
    }

    @Test
    void aNonExecutableFileDoesNotCount() throws Exception {
        tool("p4c-bm2-ss");
        tool("simple_switch_CLI");
        Files.writeString(dir.resolve("simple_switch"), "not executable");
        assertThrows(Bmv2Tools.Missing.class, () -> Bmv2Tools.find(dir.toString()));
    }

    @Test
    void commandLinesForP4cBm2SsAndSimpleSwitch() throws Exception {
        tool("p4c-bm2-ss");
        tool("p4c");
        tool("simple_switch_grpc");
        tool("simple_switch_CLI");
        Bmv2Tools t = Bmv2Tools.find("/nonexistent:" + dir);
        assertEquals(dir.resolve("p4c-bm2-ss"), t.compiler(), "p4c-bm2-ss is preferred to the p4c driver");
        assertEquals(dir.resolve("simple_switch_grpc"), t.simpleSwitch(), "simple_switch_grpc stands in for simple_switch");
        Path p4 = Path.of("/r/p4/farreach.p4");
        Path out = Path.of("/s/switch");
        assertEquals(List.of(dir.resolve("p4c-bm2-ss").toString(), "--arch", "v1model", "-I", "/r/p4", "-o",
                "/s/switch/farreach.json", "/r/p4/farreach.p4"), t.compileCommand(p4, Path.of("/r/p4"), out));
        assertEquals(Path.of("/s/switch/farreach.json"), Bmv2Tools.jsonOf(p4, out));
        assertEquals(List.of(dir.resolve("simple_switch_grpc").toString(), "-i", "1@p1", "-i", "64@p64", "--thrift-port",
                "9090", "/s/switch/farreach.json"), t.switchCommand(List.of("1@p1", "64@p64"), 9090, Bmv2Tools.jsonOf(p4, out)));
        Files.delete(dir.resolve("p4c-bm2-ss"));
        Bmv2Tools driver = Bmv2Tools.find(dir.toString());
        assertEquals(List.of(dir.resolve("p4c").toString(), "--target", "bmv2", "--arch", "v1model", "-I", "/r/p4", "-o",
                "/s/switch", "/r/p4/farreach.p4"), driver.compileCommand(p4, Path.of("/r/p4"), out));
    }
}
