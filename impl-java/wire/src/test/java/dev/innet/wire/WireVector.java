package dev.innet.wire;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One shared test vector from {@code conformance/vectors/*.vec} (format: docs/wire-format.md §4).
 * The parser is strict: an unknown key, a duplicate key or a vector without {@code layer}/{@code bytes}
 * fails the test run instead of being skipped, so a typo cannot silently disable a vector.
 */
record WireVector(String file, String name, Map<String, String> fields, byte[] bytes) {

    private static final List<String> KNOWN_KEYS = List.of("layer", "bytes", "error", "op", "flags", "status", "req_id",
            "key", "seq", "ext", "value", "eth_dst", "eth_src", "ip_src", "ip_dst", "udp_src", "udp_dst");

    String layer() {
        return fields.get("layer");
    }

    String expectedError() {
        return fields.get("error");
    }

    String field(String key) {
        String v = fields.get(key);
        if (v == null) {
            throw new IllegalStateException(this + ": missing field " + key);
        }
        return v;
    }

    long number(String key) {
        String v = field(key);
        return v.startsWith("0x") ? Long.parseLong(v.substring(2), 16) : Long.parseLong(v);
    }

    byte[] hexBytes(String key) {
        return parseHex(field(key));
    }

    @Override
    public String toString() {
        return file + "[" + name + "]";
    }

    static Path vectorDirectory() {
        String root = System.getProperty("innet.root");
        if (root == null) {
            throw new IllegalStateException("system property innet.root is not set (run through Maven)");
        }
        return Path.of(root, "conformance", "vectors");
    }

    static List<WireVector> loadAll() throws IOException {
        List<WireVector> all = new ArrayList<>();
        try (var files = Files.list(vectorDirectory())) {
            for (Path p : files.filter(f -> f.toString().endsWith(".vec")).sorted().toList()) {
                all.addAll(parse(p.getFileName().toString(), Files.readAllLines(p)));
            }
        }
        if (all.isEmpty()) {
            throw new IllegalStateException("no test vectors found in " + vectorDirectory());
        }
        return all;
    }

    static List<WireVector> parse(String file, List<String> lines) {
        List<WireVector> out = new ArrayList<>();
        String name = null;
        Map<String, String> fields = null;
        StringBuilder bytes = null;
        int lineNo = 0;
        for (String raw : lines) {
            lineNo++;
            String line = raw.strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            if (line.startsWith("[") && line.endsWith("]")) {
                if (name != null) {
                    out.add(finish(file, name, fields, bytes));
                }
                name = line.substring(1, line.length() - 1);
                fields = new LinkedHashMap<>();
                bytes = new StringBuilder();
                continue;
            }
            int eq = line.indexOf('=');
            if (name == null || eq < 0) {
                throw new IllegalArgumentException(file + ":" + lineNo + ": expected [name] or key = value");
            }
            String key = line.substring(0, eq).strip();
            String value = line.substring(eq + 1).strip();
            if (!KNOWN_KEYS.contains(key)) {
                throw new IllegalArgumentException(file + ":" + lineNo + ": unknown key " + key);
            }
            if (key.equals("bytes")) {
                bytes.append(value).append(' ');
            } else if (fields.put(key, value) != null) {
                throw new IllegalArgumentException(file + ":" + lineNo + ": duplicate key " + key);
            }
        }
        if (name != null) {
            out.add(finish(file, name, fields, bytes));
        }
        return out;
    }

    private static WireVector finish(String file, String name, Map<String, String> fields, StringBuilder bytes) {
        if (!fields.containsKey("layer")) {
            throw new IllegalArgumentException(file + "[" + name + "]: no layer");
        }
        return new WireVector(file, name, fields, parseHex(bytes.toString()));
    }

    static byte[] parseHex(String spaced) {
        return HexFormat.of().parseHex(spaced.replace(" ", ""));
    }
}
