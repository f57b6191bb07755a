package dev.innet.lake.wire;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One vector of {@code conformance/vectors/memcached/*.vec}. Strict: an unknown or repeated field,
 * or a vector without bytes, fails the run instead of being skipped.
 */
record McVector(String file, String name, Map<String, String> fields, byte[] bytes) {
    private static final List<String> KNOWN = List.of("kind", "op", "request_id", "opaque", "cas", "key", "value",
            "flags", "expiration", "status", "error");

    String field(String key) {
        return fields.get(key);
    }

    long number(String key) {
        String v = fields.get(key);
        if (v == null) {
            return 0;
        }
        return v.startsWith("0x") ? Long.parseLong(v.substring(2), 16) : Long.parseLong(v);
    }

    ByteString text(String key) {
        String v = fields.get(key);
        if (v == null) {
            return ByteString.EMPTY;
        }
        return v.startsWith("0x") ? ByteString.of(HexFormat.of().parseHex(v.substring(2)))
                : ByteString.of(v.getBytes(StandardCharsets.UTF_8));
    }

    @Override
    public String toString() {
        return file + "[" + name + "]";
    }

    static List<McVector> load(String fileName) throws IOException {
        String root = System.getProperty("innet.root");
        if (root == null) {
            throw new IllegalStateException("system property innet.root is not set (run through Maven)");
        }
        Path p = Path.of(root, "conformance", "vectors", "memcached", fileName);
        return parse(fileName, Files.readAllLines(p));
    }

    static List<McVector> parse(String file, List<String> lines) {
        List<McVector> out = new ArrayList<>();
        String name = null;
        Map<String, String> fields = new LinkedHashMap<>();
        StringBuilder hex = new StringBuilder();
        int lineNo = 0;
        for (String raw : lines) {
            lineNo++;
            String line = raw.strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            if (line.startsWith("[") && line.endsWith("]")) {
                if (name != null) {
                    out.add(finish(file, name, fields, hex));
                }
                name = line.substring(1, line.length() - 1);
                fields = new LinkedHashMap<>();
                hex = new StringBuilder();
                continue;
            }
            int eq = line.indexOf('=');
            if (name == null || eq < 0) {
                throw new IllegalStateException(file + ":" + lineNo + ": not a vector line: " + raw);
            }
            String key = line.substring(0, eq).strip();
            String value = line.substring(eq + 1).strip();
            if (key.equals("bytes")) {
                hex.append(value.replace(" ", ""));
            } else if (!KNOWN.contains(key) || fields.put(key, value) != null) {
                throw new IllegalStateException(file + ":" + lineNo + ": unknown or repeated field " + key);
            }
        }
        if (name != null) {
            out.add(finish(file, name, fields, hex));
        }
        return out;
    }

    private static McVector finish(String file, String name, Map<String, String> fields, StringBuilder hex) {
        if (hex.isEmpty()) {
            throw new IllegalStateException(file + "[" + name + "]: no bytes");
        }
        return new McVector(file, name, Map.copyOf(fields), HexFormat.of().parseHex(hex));
    }
}
