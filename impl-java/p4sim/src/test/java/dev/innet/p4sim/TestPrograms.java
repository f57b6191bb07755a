package dev.innet.p4sim;

import java.net.URISyntaxException;
import java.nio.file.Path;

/** Locates the test programs under src/test/resources/stf. */
final class TestPrograms {
    private TestPrograms() { }

    static Path stf(String name) {
        try {
            return Path.of(TestPrograms.class.getResource("/stf/" + name).toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    static byte[] hex(String s) {
        return java.util.HexFormat.of().parseHex(s.replaceAll("\\s+", ""));
    }

    static String hex(byte[] b) {
        return java.util.HexFormat.of().formatHex(b);
    }
}
