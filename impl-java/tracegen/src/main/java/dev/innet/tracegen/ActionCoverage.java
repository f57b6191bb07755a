package dev.innet.tracegen;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Which of a spec's actions a set of trace cases takes. The action names are those the spec writes
 * into its action variable ({@code act' = [a |-> "Name", ...]}): by the convention every traced spec
 * follows, one per disjunct of Next, named after it. For an action never taken, {@link #reason} looks
 * for a cause in the model: a guard of its definition on a constant the model sets to 0 or FALSE (a
 * conjunct {@code /\ BugFlag} with the flag off, or {@code n < MaxBound} with the bound 0). That is a
 * heuristic reading of the text, not a proof; a guard in a helper operator is not seen.
 */
public final class ActionCoverage {
    private static final Pattern ACTION_LABEL = Pattern.compile("act'\\s*=\\s*\\[\\s*a\\s*\\|->\\s*\"(\\w+)\"");
    /** An action with two labels ({@code act' = [a |-> IF ok THEN "CacheUpdate" ELSE "CacheUpdateRefused", ...]}). */
    private static final Pattern TWO_LABELS = Pattern.compile(
            "act'\\s*=\\s*\\[\\s*a\\s*\\|->\\s*IF\\b[^\\]\"]*THEN\\s*\"(\\w+)\"\\s*ELSE\\s*\"(\\w+)\"");
    private static final Pattern CFG_CONSTANT = Pattern.compile("(?m)^\\s*(\\w+)\\s*=\\s*(\\w+)\\s*$");

    private final List<String> actions;
    private final Set<String> taken = new TreeSet<>();

    public ActionCoverage(List<String> actions) {
        this.actions = List.copyOf(new LinkedHashSet<>(actions));
    }

    /** The action names a spec writes into {@code act'}, in the order they appear in the file. */
    public static List<String> actionsOf(Path specTla) throws IOException {
        Matcher m = ACTION_LABEL.matcher(Files.readString(specTla));
        Set<String> names = new LinkedHashSet<>();
        while (m.find()) {
            names.add(m.group(1));
        }
        Matcher two = TWO_LABELS.matcher(Files.readString(specTla));
        while (two.find()) {
            names.add(two.group(1));
            names.add(two.group(2));
        }
        if (names.isEmpty()) {
            throw new IOException(specTla + " writes no action label (act' = [a |-> \"Name\", ...]); "
                    + "pass the action names with --actions");
        }
        return new ArrayList<>(names);
    }

    public void add(TraceCase c) {
        for (TraceCase.TraceState s : c.states().subList(1, c.states().size())) {
            taken.add(s.actionName());
        }
    }

    public List<String> actions() {
        return actions;
    }

    public List<String> taken() {
        return actions.stream().filter(taken::contains).toList();
    }

    public List<String> notTaken() {
        return actions.stream().filter(a -> !taken.contains(a)).toList();
    }

    /** Actions the traces take that are not in the list: a stale list, or a label that names no action. */
    public List<String> unknown() {
        return taken.stream().filter(a -> !actions.contains(a)).toList();
    }

    /**
     * Why {@code action} may be disabled in {@code model}: "guarded by MaxClientCrash, which MCFoo sets
     * to 0", or empty when no such guard is found.
     */
    public static String reason(String action, Path specTla, Path modelCfg) throws IOException {
        String body = definition(action, Files.readString(specTla));
        if (body.isEmpty()) {
            return "";
        }
        String cfg = Files.readString(modelCfg).replaceAll("\\\\\\*[^\\n]*", "");
        Map<String, String> off = new LinkedHashMap<>();
        Matcher m = CFG_CONSTANT.matcher(cfg);
        while (m.find()) {
            if (m.group(2).equals("0") || m.group(2).equals("FALSE")) {
                off.put(m.group(1), m.group(2));
            }
        }
        List<String> found = new ArrayList<>();
        for (Map.Entry<String, String> e : off.entrySet()) {
            String name = Pattern.quote(e.getKey());
            String guard = e.getValue().equals("FALSE")
                    ? "(?m)(==|/\\\\)\\s*" + name + "\\s*(/\\\\|$)" // a conjunct that is the flag itself
                    : "<\\s*" + name + "\\b";                  // a counter below the bound
            if (Pattern.compile(guard).matcher(body).find()) {
                found.add(e.getKey() + " = " + e.getValue());
            }
        }
        if (found.isEmpty()) {
            return "";
        }
        String model = modelCfg.getFileName().toString().replaceFirst("\\.cfg$", "");
        return "guarded by " + String.join(", ", found) + " in " + model;
    }

    /** The text of {@code Name(...) ==} up to the next line that starts in column 0. */
    static String definition(String action, String spec) {
        Matcher start = Pattern.compile("(?m)^" + Pattern.quote(action) + "\\b[^\\n]*==").matcher(spec);
        if (!start.find()) {
            return "";
        }
        int end = start.end();
        Matcher next = Pattern.compile("(?m)^\\S").matcher(spec);
        return next.find(end) ? spec.substring(start.start(), next.start()) : spec.substring(start.start());
    }
}
