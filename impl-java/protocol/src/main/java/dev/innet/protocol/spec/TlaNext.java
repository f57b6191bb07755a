package dev.innet.protocol.spec;

import java.util.Collection;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Reads the action names a TLA+ spec's {@code Next} disjoins, so a spec-to-code map can be kept in step with it. */
public final class TlaNext {
    private TlaNext() {}

    /**
     * The capitalised names in the definition {@code Next ==} (up to the next blank line), less
     * {@code notActions} (the constants and sets it quantifies over).
     *
     * @throws IllegalArgumentException if the spec defines no {@code Next}
     */
    public static Set<String> actions(String spec, Collection<String> notActions) {
        int start = spec.indexOf("\nNext ==");
        if (start < 0) {
            throw new IllegalArgumentException("the spec has no Next");
        }
        int end = spec.indexOf("\n\n", start + 1);
        String next = spec.substring(start + "\nNext ==".length(), end < 0 ? spec.length() : end);
        Set<String> names = new TreeSet<>();
        Matcher m = Pattern.compile("\\b([A-Z][A-Za-z]+)\\b").matcher(next);
        while (m.find()) {
            names.add(m.group(1));
        }
        names.removeAll(notActions);
        return names;
    }
}
