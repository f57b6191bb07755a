package dev.innet.verify;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/** Reads the invariant and property names a TLC .cfg file asks for, to report what a run checked. */
final class TlcConfig {
    private static final Set<String> KEYWORDS = Set.of("CONSTANT", "CONSTANTS", "INIT", "NEXT", "SPECIFICATION",
            "INVARIANT", "INVARIANTS", "PROPERTY", "PROPERTIES", "SYMMETRY", "CONSTRAINT", "CONSTRAINTS",
            "ACTION_CONSTRAINT", "ACTION_CONSTRAINTS", "VIEW", "CHECK_DEADLOCK", "ALIAS", "POSTCONDITION");
    private static final Set<String> CHECKED = Set.of("INVARIANT", "INVARIANTS", "PROPERTY", "PROPERTIES");

    private TlcConfig() {}

    static List<String> checkedNames(Path cfg) throws IOException {
        return namesUnder(cfg, CHECKED);
    }

    private static List<String> namesUnder(Path cfg, Set<String> sections) throws IOException {
        String text = stripComments(Files.readString(cfg));
        List<String> names = new ArrayList<>();
        boolean inChecked = false;
        for (String token : text.split("\\s+")) {
            if (token.isEmpty()) {
                continue;
            }
            if (KEYWORDS.contains(token)) {
                inChecked = sections.contains(token);
            } else if (inChecked) {
                names.add(token);
            }
        }
        return names;
    }

    /** The temporal properties (PROPERTY / PROPERTIES) the .cfg checks, in order. */
    static List<String> propertyNames(Path cfg) throws IOException {
        return namesUnder(cfg, Set.of("PROPERTY", "PROPERTIES"));
    }

    static String stripComments(String text) {
        String noBlock = text.replaceAll("(?s)\\(\\*.*?\\*\\)", " ");
        return noBlock.replaceAll("\\\\\\*[^\\n]*", " ");
    }
}
