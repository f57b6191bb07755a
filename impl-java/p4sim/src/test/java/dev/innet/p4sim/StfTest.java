package dev.innet.p4sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.innet.p4sim.stf.StfRunner;
import dev.innet.p4sim.v1model.P4Switch;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/** Runs every {@code stf/NAME.stf} against {@code stf/NAME.p4}: P4-16 and v1model semantics tests. */
class StfTest {
    static Path stfDir() throws URISyntaxException {
        return Path.of(StfTest.class.getResource("/stf").toURI());
    }

    @TestFactory
    Stream<DynamicTest> stfFiles() throws IOException, URISyntaxException {
        List<Path> scripts;
        try (Stream<Path> s = Files.list(stfDir())) {
            scripts = s.filter(p -> p.toString().endsWith(".stf")).sorted().toList();
        }
        assertFalse(scripts.isEmpty());
        return scripts.stream().map(script -> DynamicTest.dynamicTest(script.getFileName().toString(), () -> {
            String base = script.getFileName().toString().replaceAll("\\.stf$", "");
            Path program = script.resolveSibling(base + ".p4");
            P4Switch sw = P4Sim.compile(program).instantiate();
            List<String> failures = new StfRunner(sw).run(script.getFileName().toString(), Files.readString(script));
            assertEquals(List.of(), failures, String.join("\n", failures));
        }));
    }
}
