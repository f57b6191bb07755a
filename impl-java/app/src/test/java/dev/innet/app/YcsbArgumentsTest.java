package dev.innet.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Every bad argument of ./innet ycsb is one line on stderr naming it, exit 2, before anything starts. */
class YcsbArgumentsTest {
    private static Integer check(String args, ByteArrayOutputStream err) {
        return new YcsbMain(Path.of(".")).checkArguments(args.isBlank() ? new String[0] : args.trim().split("\\s+"),
                new PrintStream(new ByteArrayOutputStream()), new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "bench                                  | bench",
        "load --bogus 1 -P w                    | --bogus",
        "load --servers                         | --servers",
        "load --servers x -P w                  | x",
        "serve --clients -3                     | -3",
        "load --rack cloud -P w                 | cloud",
        "load --protocol foo -P w               | foo",
        "load --rack live --protocol farreach   | live rack",
        "load --name ../x -P w                  | --name",
        "serve extra                            | extra",
        "stop --protocol farreach               | --protocol",
        "check --rack live                      | --rack",
    })
    void badArgumentIsOneLineExitTwo(String args, String named) {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        assertEquals(2, check(args, err));
        String text = err.toString(StandardCharsets.UTF_8);
        assertEquals(1, text.lines().count(), text);
        assertTrue(text.contains(named), text);
    }

    @Test
    void goodArgumentsPassYcsbsOwnThrough() {
        assertNull(check("run --name t1 --servers 2 -P workloads/workloada -threads 4 -p recordcount=10", new ByteArrayOutputStream()));
        assertNull(check("load --rack live --name rack -P workloads/workloadb", new ByteArrayOutputStream()));
    }
}
