package dev.innet.p4sim.stf;

import dev.innet.switchapi.ControlException;
import dev.innet.switchapi.CounterValue;
import dev.innet.switchapi.EntrySpec;
import dev.innet.switchapi.Match;
import dev.innet.switchapi.MulticastBuilder;
import dev.innet.switchapi.SwitchControl;
import dev.innet.p4sim.runtime.TableRuntime;
import dev.innet.p4sim.v1model.P4Switch;
import java.math.BigInteger;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Runs p4c's STF ("simple test framework") scripts against a p4sim switch, understanding them as p4c's
 * bmv2 runner ({@code backends/bmv2/bmv2stf.py} with {@code stf_parser.py}) does. Commands:
 * {@code add <table> [<priority>] <key>:<value>... <action>(<param>:<value>, ...) [= <ID>]} (values:
 * number, {@code v&&&m}, {@code v/len}, {@code lo->hi}, {@code *}, ternary {@code 0x12**}; an lpm key
 * without {@code /len} takes its length from the digits, as p4c's runner does), {@code setdefault
 * <table> <action>(...)}, {@code packet <port> <hex, spaces allowed>}, {@code expect <port> <hex with *
 * nibble wildcards>[$]} ({@code $}: exact length; otherwise the packet may be longer), {@code expect
 * <port>} with no data (any packets on that port), {@code no_packet}, {@code wait},
 * {@code mirroring_add <session> <port>}, {@code mc_mgrp_create}, {@code mc_node_create <rid>
 * <ports...>}, {@code mc_node_associate <group> <handle>}, {@code check_counter <name>(<index>|$ID)
 * [packets|bytes <op> <n>]}; and, as p4sim extensions, {@code register_write <name> <index> <value>}
 * and {@code check_register <name>(<index>) == <value>}. Table and action names may be suffixes of the
 * qualified names ({@code t} for {@code ingress.t}), key names suffixes of the key expressions.
 *
 * <p>Priorities are STF's: a larger number wins (p4c's runner hands bmv2 {@code 10000 - p}, and bmv2's
 * smaller value wins); an entry without one has the lowest priority.
 *
 * <p>Output matching: per port, the packets must match the expects in order, and an unexpected packet
 * or an unmet expect fails the test. By default each {@code wait} also settles what was sent so far
 * (stricter, and it names the step that failed); {@link #p4cMatching()} matches only at the end of the
 * script, exactly as p4c's runner does.
 */
public final class StfRunner {
    /** The STF priority a missing one stands for: below every written one (which are 0 or more). */
    private static final int LOWEST_PRIORITY = 1;
    private final P4Switch sw;
    private final SwitchControl control;
    private final MulticastBuilder multicast;
    private final List<String> failures = new ArrayList<>();
    private final List<String> formatErrors = new ArrayList<>();
    private final Map<Integer, ArrayDeque<Expectation>> expected = new TreeMap<>();
    private final Map<Integer, ArrayDeque<byte[]>> received = new TreeMap<>();
    private final java.util.Set<Integer> anyOutputPorts = new java.util.TreeSet<>();
    private final Map<String, NamedEntry> namedEntries = new java.util.HashMap<>();
    private boolean settleOnWait = true;
    /**
     * With {@link #p4cMatching()}: the ports the whole script names in {@code packet} and {@code expect}
     * lines (computed on the first run call). p4c's runner gives simple_switch exactly those interfaces,
     * so a packet sent anywhere else leaves no trace; null in the default mode, where every output counts.
     */
    private java.util.Set<Integer> scriptPorts;
    private int outputsOfLastPacket;
    private String file = "stf";
    /** Where packets go: {@code sw} in this process ({@link #inProcess}), or a live switch's (bmv2's) ports. */
    private PacketPath path;
    /** A packet was sent since its outputs were last collected (a live switch's may still be on their way). */
    private boolean inFlight;
    private long packetsSent;

    /**
     * The ports of a switch that runs outside this process (bmv2 on veth pairs): a packet's outputs arrive
     * some time after it is sent. {@link #quiesce} hands each output of the packets sent so far to the sink
     * given with it, on the caller's thread, once the switch has gone quiet.
     */
    public interface PacketPath {
        void send(int port, byte[] frame, dev.innet.p4sim.v1model.PacketSink sink);

        void quiesce();
    }

    /**
     * The in-process switch as a path: outputs reach the sink before {@code send} returns, so there is
     * nothing to wait for. A switch that aborted (as simple_switch's process dies) takes no more packets.
     */
    private static PacketPath inProcess(P4Switch sw) {
        return new PacketPath() {
            @Override
            public void send(int port, byte[] frame, dev.innet.p4sim.v1model.PacketSink sink) {
                if (sw.aborted() == null) {
                    sw.process(port, frame, 0, frame.length, sink);
                }
            }

            @Override
            public void quiesce() { }
        };
    }

    private record Expectation(int line, String pattern, boolean exactLength) { }

    /** An entry added with {@code = ID}, for {@code check_counter name($ID)}. */
    private record NamedEntry(String table, List<Match> match, int priority) { }

    public StfRunner(P4Switch sw) {
        this(sw, sw.control());
    }

    /**
     * A runner whose commands go through {@code control} (the switch's own, wrapped: a benchmark records
     * them to bring another target to the same state), while packets go to {@code sw}.
     */
    public StfRunner(P4Switch sw, SwitchControl control) {
        this.sw = sw;
        this.control = control;
        this.multicast = new MulticastBuilder(control);
        this.path = inProcess(sw);
    }

    /**
     * Runs a script exactly as p4c's bmv2 runner ({@code bmv2stf.py}) would: outputs are matched only at
     * the end of the script ({@code wait} only waits); the switch has only the ports the script names in
     * {@code packet} and {@code expect} lines, so what goes to any other port is lost (simple_switch is
     * started with one pcap interface per named port); and packet data with an odd number of hex digits
     * ends in a byte holding the last digit ({@code 20 0} is 0x20 0x00), as its {@code HexToByte} reads it.
     */
    public StfRunner p4cMatching() {
        settleOnWait = false;
        scriptPorts = new java.util.TreeSet<>();
        return this;
    }

    /**
     * Sends the script's packets through {@code path} instead of the in-process switch, which then only
     * gives the program's tables for parsing. Before any command that follows a packet, and before the
     * outputs are matched, the runner waits for the switch to go quiet: a command must not overtake the
     * packets sent before it, as it cannot in process.
     */
    public StfRunner through(PacketPath path) {
        this.path = path;
        return this;
    }

    /** The lines that could not be understood (also among the failures): the script is bad input. */
    public List<String> formatErrors() {
        return formatErrors;
    }

    /** Runs a script; returns the failures (empty if the test passed). */
    public List<String> run(String fileName, String script) {
        String[] lines = lines(script);
        return run(fileName, lines, 0, lines.length);
    }

    /** The lines of a script, as {@link #run(String, String[], int, int)} numbers them. */
    public static String[] lines(String script) {
        return script.split("\r?\n");
    }

    /**
     * Runs lines {@code [from, to)} of a script (0-based; messages give 1-based file line numbers), then
     * matches the outputs so far against the expectations so far, as the end of a script does. Calling
     * it for consecutive ranges runs one script in pieces on one switch, with each piece's outputs
     * required within that piece: a failure is then attributed to its piece, not to the end of the file.
     * Returns all failures so far (empty if everything passed).
     */
    public List<String> run(String fileName, String[] lines, int from, int to) {
        this.file = fileName;
        if (scriptPorts != null && scriptPorts.isEmpty()) {
            collectScriptPorts(lines);
        }
        for (int i = from; i < to; i++) {
            String line = lines[i];
            int hash = line.indexOf('#');
            if (hash >= 0) {
                line = line.substring(0, hash);
            }
            line = line.strip();
            if (line.isEmpty()) {
                continue;
            }
            try {
                command(i + 1, line);
            } catch (StfFormatException e) {
                String message = file + ":" + (i + 1) + ": " + e.getMessage() + " (in '" + line + "')";
                formatErrors.add(message);
                failures.add(message);
            } catch (ControlException | IllegalArgumentException e) {
                failures.add(file + ":" + (i + 1) + ": " + e.getMessage());
            }
        }
        settle(to);
        return failures;
    }

    /** p4c's runner scans the whole script for the ports of packet and expect lines before it starts. */
    private void collectScriptPorts(String[] lines) {
        scriptPorts.addAll(scriptPorts(lines));
    }

    /** The ports a script names in {@code packet} and {@code expect} lines: the interfaces p4c's runner cables. */
    public static java.util.Set<Integer> scriptPorts(String[] lines) {
        java.util.Set<Integer> ports = new java.util.TreeSet<>();
        for (String raw : lines) {
            String[] w = raw.replaceAll("#.*", "").strip().split("\\s+");
            if (w.length >= 2 && (w[0].equalsIgnoreCase("packet") || w[0].equalsIgnoreCase("expect"))
                    && w[1].matches("[0-9]+")) {
                ports.add(Integer.parseInt(w[1]));
            }
        }
        return ports;
    }

    private void command(int line, String text) {
        String[] w = text.split("\\s+", 2);
        String rest = w.length > 1 ? w[1].strip() : "";
        String verb = w[0].toLowerCase(java.util.Locale.ROOT);
        if (inFlight && !verb.equals("packet") && !verb.equals("expect")) {
            path.quiesce();
            inFlight = false;
        }
        switch (verb) {
            case "add" -> add(rest);
            case "setdefault" -> {
                String[] p = rest.split("\\s+", 2);
                if (p.length < 2) {
                    throw new StfFormatException("setdefault needs a table and an action(...)");
                }
                TableRuntime t = table(p[0]);
                ActionText a = parseAction(t, p[1]);
                control.setDefaultAction(t.name, a.name, a.args);
            }
            case "packet" -> {
                String[] p = rest.split("\\s+", 2);
                byte[] frame = hex(p.length > 1 ? p[1] : "", scriptPorts != null);
                outputsOfLastPacket = 0;
                int in = port(p[0]);
                long sent = ++packetsSent;
                try {
                    path.send(in, frame, (port, buf, off, len) -> {
                        if (scriptPorts != null && !scriptPorts.contains(port)) {
                            return; // p4c's simple_switch has no such interface
                        }
                        received.computeIfAbsent(port, k -> new ArrayDeque<>()).add(Arrays.copyOfRange(buf, off, off + len));
                        if (sent == packetsSent) {
                            outputsOfLastPacket++; // no_packet asks about the last packet only
                        }
                    });
                } catch (dev.innet.p4sim.runtime.P4AbortException e) {
                    failures.add(file + ":" + line + ": the switch aborted (as simple_switch does): " + e.getMessage());
                }
                inFlight = true;
            }
            case "expect" -> {
                String[] p = rest.split("\\s+", 2);
                int port = port(p[0]);
                String pat = (p.length > 1 ? p[1] : "").replaceAll("\\s+", "");
                if (pat.isEmpty()) {
                    anyOutputPorts.add(port); // p4c: any number of packets on this port is fine
                    return;
                }
                boolean exact = pat.endsWith("$");
                if (exact) {
                    pat = pat.substring(0, pat.length() - 1);
                }
                if (!pat.matches("[0-9a-fA-F*]*")) {
                    throw new StfFormatException("expected packet data is not hex digits and '*'");
                }
                expected.computeIfAbsent(port, k -> new ArrayDeque<>()).add(new Expectation(line, pat.toLowerCase(), exact));
            }
            case "no_packet" -> {
                if (outputsOfLastPacket != 0) {
                    failures.add(file + ":" + line + ": expected no packet, but the last packet produced " + outputsOfLastPacket);
                }
            }
            case "wait" -> {
                if (settleOnWait) {
                    settle(line);
                }
            }
            case "mirroring_add" -> {
                String[] p = words(rest, 2, "mirroring_add <session> <port>");
                control.cloneSessionSet(integer(p[0]), integer(p[1]));
            }
            case "mc_mgrp_create" -> multicast.createGroup(integer(words(rest, 1, "mc_mgrp_create <group>")[0]));
            case "mc_node_create" -> {
                String[] p = words(rest, 1, "mc_node_create <rid> <port>...");
                List<Integer> ports = new ArrayList<>();
                for (int i = 1; i < p.length; i++) {
                    ports.add(integer(p[i]));
                }
                multicast.createNode(integer(p[0]), ports);
            }
            case "mc_node_associate" -> {
                String[] p = words(rest, 2, "mc_node_associate <group> <node handle>");
                multicast.associate(integer(p[0]), integer(p[1]));
            }
            case "register_write" -> {
                String[] p = words(rest, 3, "register_write <register> <index> <value>");
                control.registerWrite(p[0], integer(p[1]), number(p[2]));
            }
            case "remove" -> {
                // in p4c's STF grammar ("remove all"), but its bmv2 runner ignores it: entries stay
                if (!rest.equalsIgnoreCase("all")) {
                    throw new StfFormatException("usage: remove all");
                }
            }
            case "pvs_add" -> {
                // p4sim extension, named as bmv2's runtime CLI command: pvs_add <value set> <value>
                String[] p = rest.split("\\s+");
                control.valueSetAdd(p[0], number(p[1]));
            }
            case "check_register" -> checkRegister(line, rest);
            case "check_counter" -> checkCounter(line, rest);
            default -> throw new StfFormatException("unknown STF command '" + w[0] + "'");
        }
    }

    private static String[] words(String rest, int atLeast, String usage) {
        String[] p = rest.isEmpty() ? new String[0] : rest.split("\\s+");
        if (p.length < atLeast) {
            throw new StfFormatException("usage: " + usage);
        }
        return p;
    }

    private static int port(String text) {
        int p = integer(text);
        if (p < 0 || p > 511) {
            throw new StfFormatException("port " + p + " is outside 0..511");
        }
        return p;
    }

    private static int integer(String text) {
        try {
            return number(text).intValueExact();
        } catch (ArithmeticException e) {
            throw new StfFormatException("'" + text + "' is too large");
        }
    }

    private void add(String rest) {
        // <table> [<priority>] key:value ... action(args) [= ID]
        String id = null;
        int close = rest.lastIndexOf(')');
        int eq = rest.indexOf('=', Math.max(close, 0));
        if (close >= 0 && eq > close) {
            id = rest.substring(eq + 1).strip();
            rest = rest.substring(0, eq).strip();
        }
        int paren = rest.indexOf('(');
        if (paren < 0 || !rest.endsWith(")")) {
            throw new StfFormatException("add needs an action call 'name(param:value, ...)' at the end");
        }
        String[] toks = rest.substring(0, paren).strip().split("\\s+");
        if (toks.length < 2) {
            throw new StfFormatException("usage: add <table> [<priority>] <key>:<value>... <action>(<args>)");
        }
        TableRuntime t = table(toks[0]);
        String actionName = toks[toks.length - 1];
        boolean hasPriority = toks.length > 2 && toks[1].matches("\\d+");
        int first = hasPriority ? 2 : 1;
        Match[] match = new Match[t.kinds.length];
        for (int i = first; i < toks.length - 1; i++) {
            int colon = toks[i].lastIndexOf(':');
            if (colon <= 0) {
                throw new StfFormatException("key '" + toks[i] + "' is not name:value");
            }
            int idx = keyIndex(t, toks[i].substring(0, colon));
            match[idx] = keyValue(toks[i].substring(colon + 1), t.kinds[idx], t.widths[idx]);
        }
        for (int i = 0; i < match.length; i++) {
            if (match[i] == null) {
                // as p4c's runner fills in a key the line leaves out: exact 0, anything else matches all
                match[i] = t.kinds[i] == TableRuntime.MatchKind.EXACT ? new Match.Exact(BigInteger.ZERO) : new Match.Wildcard();
            }
        }
        int priority = t.usesPriority ? fromStfPriority(hasPriority ? Integer.parseInt(toks[1]) : -1) : 0;
        ActionText a = parseAction(t, actionName + rest.substring(paren));
        List<Match> m = List.of(match);
        control.addEntry(new EntrySpec(t.name, m, priority, a.name, a.args));
        if (id != null) {
            namedEntries.put(id, new NamedEntry(t.name, m, priority));
        }
    }

    /**
     * STF priorities: a larger number wins (p4c's bmv2 runner writes {@code 10000 - p} for bmv2, whose
     * smaller value wins), as in the control API; -1 (none written) is below every written one.
     */
    static int fromStfPriority(int stf) {
        if (stf < 0) {
            return LOWEST_PRIORITY;
        }
        if (stf >= BMV2_PRIORITY_LIMIT - 2) {
            throw new StfFormatException("priority " + stf + " is too large");
        }
        return stf + 2;
    }

    /**
     * bmv2's runtime CLI uses "smaller priority value wins"; the control API uses P4Runtime's "larger
     * wins". A missing priority is the lowest.
     */
    public static int fromBmv2Priority(int bmv2, boolean given) {
        if (!given) {
            return 1;
        }
        if (bmv2 < 0 || bmv2 >= BMV2_PRIORITY_LIMIT) {
            throw new IllegalArgumentException("priority " + bmv2 + " out of range [0, " + (BMV2_PRIORITY_LIMIT - 1) + "]");
        }
        return BMV2_PRIORITY_LIMIT - bmv2;
    }

    public static final int BMV2_PRIORITY_LIMIT = 1 << 24;

    /** A table by its qualified name or, as p4c's runner allows, a unique suffix of it. */
    private TableRuntime table(String name) {
        try {
            return sw.tableRuntime(name);
        } catch (ControlException e) {
            TableRuntime found = null;
            for (TableRuntime t : sw.tables()) {
                if (t.name.endsWith("." + name) || t.name.endsWith(name)) {
                    if (found != null) {
                        throw new StfFormatException("table name '" + name + "' is ambiguous: " + found.name + ", " + t.name);
                    }
                    found = t;
                }
            }
            if (found == null) {
                throw new StfFormatException(e.getMessage());
            }
            return found;
        }
    }

    /**
     * A key by the name p4c's STF writes: the key expression ({@code hdr.h.f}) or a suffix of it after a
     * dot ({@code h.f}, {@code f}); {@code h.$valid$} and {@code h.valid} for {@code h.isValid()};
     * {@code s$0} for {@code s[0]}.
     */
    private static int keyIndex(TableRuntime t, String key) {
        String k = key.replaceAll("\\$(\\d+)", "[$1]");
        if (k.endsWith("$valid$")) {
            k = k.substring(0, k.length() - "$valid$".length());
            k = (k.endsWith(".") ? k.substring(0, k.length() - 1) : k) + ".isValid()";
        }
        for (String candidate : new String[] {k, k.endsWith(".valid") ? k.substring(0, k.length() - 6) + ".isValid()" : null}) {
            if (candidate == null) {
                continue;
            }
            for (int i = 0; i < t.keyNames.length; i++) {
                String name = t.keyNames[i].replace(" ", "");
                if (name.equals(candidate) || name.endsWith("." + candidate)) {
                    return i;
                }
            }
        }
        throw new StfFormatException("table " + t.name + " has no key field '" + key + "' (keys: " + Arrays.toString(t.keyNames) + ")");
    }

    private static Match keyValue(String v, TableRuntime.MatchKind kind, int width) {
        if (v.equals("*")) {
            return new Match.Wildcard();
        }
        if (v.contains("&&&")) {
            String[] p = v.split("&&&");
            return new Match.Ternary(number(p[0]), number(p[1]));
        }
        if (v.contains("->")) {
            String[] p = v.split("->");
            return new Match.Range(number(p[0]), number(p[1]));
        }
        if (v.contains("/")) {
            String[] p = v.split("/");
            return new Match.Lpm(number(p[0].replace('*', '0')), integer(p[1]));
        }
        boolean wildDigits = v.contains("*");
        String lower = v.toLowerCase(java.util.Locale.ROOT);
        int bitsPerDigit = lower.startsWith("0x") ? 4 : lower.startsWith("0b") ? 1 : lower.startsWith("0o") ? 3 : 0;
        if (wildDigits && bitsPerDigit == 0) {
            throw new StfFormatException("'*' digits need a 0x, 0b or 0o value: '" + v + "'");
        }
        if (kind == TableRuntime.MatchKind.LPM) {
            // p4c's runner: the prefix is the digits written (a '*' digit is not part of it)
            if (bitsPerDigit == 0) {
                return new Match.Lpm(number(v), width);
            }
            String digits = lower.substring(2).replace("_", "");
            int written = digits.length() - (int) digits.chars().filter(c -> c == '*').count();
            return new Match.Lpm(number(v.replace('*', '0')), Math.min(width, written * bitsPerDigit));
        }
        if (wildDigits || kind == TableRuntime.MatchKind.TERNARY) {
            // '*' digits are wildcards (a nibble in hex, a bit in binary, three bits in octal)
            if (bitsPerDigit == 0) {
                return new Match.Ternary(number(v), BigInteger.ONE.shiftLeft(width).subtract(BigInteger.ONE));
            }
            BigInteger value = BigInteger.ZERO;
            BigInteger mask = BigInteger.ZERO;
            BigInteger full = BigInteger.ONE.shiftLeft(bitsPerDigit).subtract(BigInteger.ONE);
            for (char ch : lower.substring(2).replace("_", "").toCharArray()) {
                value = value.shiftLeft(bitsPerDigit);
                mask = mask.shiftLeft(bitsPerDigit);
                if (ch != '*') {
                    int d = Character.digit(ch, 1 << bitsPerDigit);
                    if (d < 0) {
                        throw new StfFormatException("'" + ch + "' is not a digit in '" + v + "'");
                    }
                    value = value.or(BigInteger.valueOf(d));
                    mask = mask.or(full);
                }
            }
            BigInteger fieldMask = BigInteger.ONE.shiftLeft(width).subtract(BigInteger.ONE);
            return new Match.Ternary(value.and(fieldMask), mask.and(fieldMask));
        }
        return new Match.Exact(number(v));
    }

    private record ActionText(String name, List<BigInteger> args) { }

    /** {@code name(p:v, ...)} with named or positional arguments; the name may be a suffix, as in p4c's runner. */
    private ActionText parseAction(TableRuntime t, String text) {
        int paren = text.indexOf('(');
        String name = (paren < 0 ? text : text.substring(0, paren)).strip();
        dev.innet.p4sim.runtime.ActionRuntime ar = t.action(name);
        if (ar == null) {
            for (dev.innet.p4sim.runtime.ActionRuntime a : t.actions) {
                if (a.name.endsWith(name)) {
                    ar = a;
                }
            }
        }
        if (ar == null) {
            throw new StfFormatException("action '" + name + "' is not an action of table " + t.name);
        }
        List<BigInteger> args = new ArrayList<>();
        BigInteger[] byPos = new BigInteger[ar.paramNames.length];
        if (paren >= 0) {
            int close = text.lastIndexOf(')');
            if (close < paren) {
                throw new StfFormatException("missing ')' after the arguments of action " + name);
            }
            String inner = text.substring(paren + 1, close).strip();
            if (!inner.isEmpty()) {
                String[] parts = inner.split(",");
                for (int i = 0; i < parts.length; i++) {
                    String part = parts[i].strip();
                    int colon = part.indexOf(':');
                    if (colon < 0) {
                        if (i >= byPos.length) {
                            throw new StfFormatException("too many arguments for action " + name);
                        }
                        byPos[i] = number(part);
                        continue;
                    }
                    String pn = part.substring(0, colon).strip();
                    int idx = Arrays.asList(ar.paramNames).indexOf(pn);
                    if (idx < 0) {
                        throw new StfFormatException("action " + name + " has no parameter '" + pn + "'");
                    }
                    byPos[idx] = number(part.substring(colon + 1).strip());
                }
            }
        }
        for (int i = 0; i < byPos.length; i++) {
            if (byPos[i] == null) {
                throw new StfFormatException("missing argument '" + ar.paramNames[i] + "' for action " + name);
            }
            args.add(byPos[i]);
        }
        return new ActionText(ar.name, args);
    }

    /** {@code name(index) [packets|bytes <op> <n>]} or {@code name($ID) ...} for a direct counter's entry. */
    private void checkCounter(int line, String rest) {
        java.util.regex.Matcher m = java.util.regex.Pattern
                .compile("(\\S+?)\\s*\\(\\s*(\\S+?)\\s*\\)\\s*(?:(packets|bytes)\\s*(==|!=|<=|>=|<|>)\\s*(\\S+))?")
                .matcher(rest);
        if (!m.matches()) {
            throw new StfFormatException("usage: check_counter <name>(<index>|$ID) [packets|bytes <op> <value>]");
        }
        String name = m.group(1);
        String index = m.group(2);
        boolean bytes = "bytes".equals(m.group(3));
        String op = m.group(4) == null ? "==" : m.group(4);
        long want = m.group(5) == null ? 0 : number(m.group(5)).longValue();
        CounterValue v;
        if (index.startsWith("$")) {
            NamedEntry e = namedEntries.get(index.substring(1));
            if (e == null) {
                throw new StfFormatException("no entry was added with '= " + index.substring(1) + "'");
            }
            v = control.directCounterRead(e.table(), e.match(), e.priority());
        } else {
            v = control.counterRead(name, integer(index));
        }
        long got = bytes ? v.bytes() : v.packets();
        boolean ok = switch (op) {
            case "==" -> got == want;
            case "!=" -> got != want;
            case "<=" -> got <= want;
            case ">=" -> got >= want;
            case "<" -> got < want;
            default -> got > want;
        };
        if (!ok) {
            failures.add(file + ":" + line + ": counter " + name + "(" + index + ")" + (bytes ? " bytes" : " packets")
                    + " is " + got + ", expected " + op + " " + want);
        }
    }

    private void checkRegister(int line, String rest) {
        String[] p = rest.split("\\s+");
        String ref = p[0];
        String name = ref.substring(0, ref.indexOf('('));
        int index = Integer.parseInt(ref.substring(ref.indexOf('(') + 1, ref.indexOf(')')));
        BigInteger want = number(p[p.length - 1]);
        BigInteger got = control.registerRead(name, index);
        if (!got.equals(want)) {
            failures.add(file + ":" + line + ": register " + ref + " is 0x" + got.toString(16) + ", expected 0x" + want.toString(16));
        }
    }

    /** Matches received packets against expectations, port by port in order. */
    private void settle(int line) {
        if (inFlight) {
            path.quiesce();
            inFlight = false;
        }
        java.util.Set<Integer> ports = new java.util.TreeSet<>(expected.keySet());
        ports.addAll(received.keySet());
        for (int port : ports) {
            ArrayDeque<Expectation> exp = expected.getOrDefault(port, new ArrayDeque<>());
            ArrayDeque<byte[]> got = received.getOrDefault(port, new ArrayDeque<>());
            if (anyOutputPorts.contains(port)) {
                if (!exp.isEmpty()) {
                    failures.add(file + ":" + exp.peek().line() + ": port " + port
                            + " has both 'expect " + port + "' without data and expected packets");
                }
                exp.clear();
                got.clear();
                continue;
            }
            while (!exp.isEmpty() && !got.isEmpty()) {
                Expectation e = exp.poll();
                byte[] pkt = got.poll();
                String mismatch = compare(e, pkt);
                if (mismatch != null) {
                    failures.add(file + ":" + e.line() + ": packet on port " + port + " " + mismatch);
                }
            }
            for (Expectation e : exp) {
                failures.add(file + ":" + e.line() + ": expected packet on port " + port + " was not received");
            }
            for (byte[] pkt : got) {
                failures.add(file + ":" + line + ": unexpected packet on port " + port + ": " + hexString(pkt));
            }
            exp.clear();
            got.clear();
        }
    }

    private static String compare(Expectation e, byte[] pkt) {
        String have = hexString(pkt);
        String want = e.pattern();
        if (have.length() < want.length() || (e.exactLength() && have.length() != want.length())) {
            return "has length " + pkt.length + " bytes, expected " + (want.length() / 2) + (e.exactLength() ? "" : "+")
                    + "\n    got  " + have + "\n    want " + want;
        }
        for (int i = 0; i < want.length(); i++) {
            char c = want.charAt(i);
            if (c != '*' && c != have.charAt(i)) {
                return "differs at nibble " + i + "\n    got  " + have + "\n    want " + want;
            }
        }
        return null;
    }

    static String hexString(byte[] b) {
        StringBuilder sb = new StringBuilder();
        for (byte x : b) {
            sb.append(String.format("%02x", x & 0xFF));
        }
        return sb.toString();
    }

    /** Packet data; with {@code lastDigitIsAByte} an odd count of digits ends in a byte of the last digit's value. */
    static byte[] hex(String s, boolean lastDigitIsAByte) {
        String h = s.replaceAll("\\s+", "");
        if (h.length() % 2 != 0) {
            if (!lastDigitIsAByte) {
                throw new StfFormatException("odd number of hex digits in packet data");
            }
            h = h.substring(0, h.length() - 1) + "0" + h.charAt(h.length() - 1);
        }
        if (!h.matches("[0-9a-fA-F]*")) {
            throw new StfFormatException("packet data is not hex digits");
        }
        byte[] out = new byte[h.length() / 2];
        for (int i = 0; i < out.length; i++) {
            out[i] = (byte) Integer.parseInt(h.substring(2 * i, 2 * i + 2), 16);
        }
        return out;
    }

    static BigInteger number(String s) {
        try {
            return parseNumber(s);
        } catch (NumberFormatException e) {
            throw new StfFormatException("'" + s + "' is not a number");
        }
    }

    private static BigInteger parseNumber(String s) {
        String t = s.strip().replace("_", "");
        if (t.startsWith("0o") || t.startsWith("0O")) {
            return new BigInteger(t.substring(2), 8);
        }
        if (t.startsWith("0x") || t.startsWith("0X")) {
            return new BigInteger(t.substring(2), 16);
        }
        if (t.startsWith("0b") || t.startsWith("0B")) {
            return new BigInteger(t.substring(2), 2);
        }
        return new BigInteger(t);
    }
}
