package dev.innet.conformance;

import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The action names a spec's {@code Next} disjoins: what coverage is measured against. */
public final class SpecActions {
    private static final Pattern NAME = Pattern.compile("\\b([A-Z][A-Za-z0-9]+)\\b");

    private SpecActions() {}

    /**
     * The capitalised identifiers in the body of {@code Next ==} (up to the first blank line) that are
     * defined as operators in the spec: the actions, without the sets ({@code Client}, {@code BOOLEAN})
     * they quantify over, constants or defined as a set literal ({@code Layer == {"spine", "leaf"}}).
     */
    public static Set<String> ofNext(String spec) {
        int start = spec.indexOf("\nNext ==");
        if (start < 0) {
            throw new IllegalArgumentException("the spec has no 'Next ==' definition");
        }
        int end = spec.indexOf("\n\n", start + 1);
        String next = spec.substring(start + "\nNext ==".length(), end < 0 ? spec.length() : end);
        Set<String> names = new TreeSet<>();
        Matcher m = NAME.matcher(next);
        while (m.find()) {
            String name = m.group(1);
            if (Pattern.compile("(?m)^" + name + "(\\(.*\\))? ==").matcher(spec).find()
                    && !Pattern.compile("(?m)^" + name + " ==\\s*\\{").matcher(spec).find()) {
                names.add(name);
            }
        }
        return names;
    }
}
