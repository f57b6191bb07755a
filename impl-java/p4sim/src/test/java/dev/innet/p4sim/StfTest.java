package dev.innet.p4sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.innet.p4sim.stf.StfRunner;
import dev.innet.p4sim.v1model.P4Switch;
import dev.innet.p4sim.v1model.SwitchConfig;
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
        // every script runs on both code generators: per-node classes (the default) and plain closures
        return scripts.stream().flatMap(script -> Stream.of(true, false).map(specialize -> DynamicTest.dynamicTest(
                script.getFileName() + (specialize ? " (specialised)" : " (closures)"), () -> {
                    String base = script.getFileName().toString().replaceAll("\\.stf$", "");
                    Path program = script.resolveSibling(base + ".p4");
                    P4Switch sw = P4Sim.compile(program).instantiate(SwitchConfig.defaults().withSpecialization(specialize));
                    List<String> failures = new StfRunner(sw).run(script.getFileName().toString(), Files.readString(script));
                    assertEquals(List.of(), failures, String.join("\n", failures));
                    // and with coverage probes compiled in: the same behaviour
                    P4Switch counted = P4Sim.compile(program)
                            .instantiate(SwitchConfig.defaults().withSpecialization(specialize).withCoverage(true));
                    failures = new StfRunner(counted).run(script.getFileName().toString(), Files.readString(script));
                    assertEquals(List.of(), failures, "with coverage: " + String.join("\n", failures));
                })));
    }
}
