package dev.innet.p4runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.TextFormat;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.p4.config.v1.P4Info;

/** {@code ./innet p4sim --p4info FILE --check} and the P4Runtime options' argument errors. */
class MainOptionsTest {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(String... args) {
        PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
        return dev.innet.p4sim.Main.run(args, o, new PrintStream(err, true, StandardCharsets.UTF_8), new P4RuntimeOptions(o));
    }

    private static String program() throws Exception {
        return Path.of(MainOptionsTest.class.getResource("/p4rt.p4").toURI()).toString();
    }

    @Test
    void checkWithP4infoWritesTheTextFormat(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("p4info.txt");
        assertEquals(0, run("--program", program(), "--check", "--p4info", file.toString()), err.toString());
        P4Info.Builder parsed = P4Info.newBuilder();
        TextFormat.merge(Files.readString(file), parsed);
        assertEquals(4, parsed.getTablesCount());
        assertEquals(1, parsed.getActionProfilesCount());
        assertTrue(out.toString().contains("ok"));
    }

    @Test
    void badP4runtimeArgumentsAreUsageErrorsBeforeAnythingRuns(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("p4info.txt");
        assertEquals(2, run("--program", program(), "--p4runtime-port", "70000", "--p4info", file.toString()));
        assertTrue(err.toString().contains("port 70000 is outside 0..65535"), err.toString());
        assertFalse(Files.exists(file), "nothing may be written after a usage error");
        err.reset();
        assertEquals(2, run("--program", program(), "--p4runtime-port", "many"));
        assertTrue(err.toString().contains("'many' is not a port number"), err.toString());
        err.reset();
        assertEquals(1, run("--program", program(), "--check", "--p4info", dir.resolve("no/such/dir.txt").toString()));
        assertTrue(err.toString().contains("cannot write the P4Info"), err.toString());
    }
}
