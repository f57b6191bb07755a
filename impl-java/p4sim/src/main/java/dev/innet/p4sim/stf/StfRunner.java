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
 * Runs p4c's STF ("simple test framework") scripts against a p4sim switch. Supported commands:
 * {@code add <table> [<priority>] <key>:<value>... <action>(<param>:<value>, ...)} (values: number,
 * {@code v&&&m}, {@code v/len}, {@code lo->hi}, {@code *}), {@code setdefault <table> <action>(...)},
 * {@code packet <port> <hex>}, {@code expect <port> <hex with * nibble wildcards>[$]},
 * {@code no_packet}, {@code wait}, {@code mirroring_add <session> <port>}, {@code mc_mgrp_create},
 * {@code mc_node_create <rid> <ports...>}, {@code mc_node_associate <group> <handle>},
 * {@code check_counter <name>(<index>) [packets|bytes] == <n>}; and, as p4sim extensions,
 * {@code register_write <name> <index> <value>} and {@code check_register <name>(<index>) == <value>}.
 * Output matching is strict, as in p4c's bmv2 STF runner: per port, outputs must match the expects in
 * order; an unexpected packet or an unmet expect fails the test.
 */
public final class StfRunner {
    private final P4Switch sw;
    private final SwitchControl control;
    private final MulticastBuilder multicast;
    private final List<String> failures = new ArrayList<>();
    private final Map<Integer, ArrayDeque<Expectation>> expected = new TreeMap<>();
    private final Map<Integer, ArrayDeque<byte[]>> received = new TreeMap<>();
    private int outputsOfLastPacket;
    private String file = "stf";

    private record Expectation(int line, String pattern, boolean exactLength) { }

    public StfRunner(P4Switch sw) {
        this.sw = sw;
        this.control = sw.control();
        this.multicast = new MulticastBuilder(control);
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
            } catch (ControlException | IllegalArgumentException e) {
                failures.add(file + ":" + (i + 1) + ": " + e.getMessage());
            }
        }
        settle(to);
        return failures;
    }

    private void command(int line, String text) {
        String[] w = text.split("\\s+", 2);
        String rest = w.length > 1 ? w[1].strip() : "";
        switch (w[0]) {
            case "add" -> add(rest);
            case "setdefault" -> {
                String[] p = rest.split("\\s+", 2);
                ActionText a = parseAction(p[0], p.length > 1 ? p[1] : "");
                control.setDefaultAction(p[0], a.name, a.args);
            }
            case "packet" -> {
                String[] p = rest.split("\\s+", 2);
                byte[] frame = hex(p.length > 1 ? p[1] : "");
                outputsOfLastPacket = 0;
                sw.process(Integer.parseInt(p[0]), frame, 0, frame.length, (port, buf, off, len) -> {
                    received.computeIfAbsent(port, k -> new ArrayDeque<>()).add(Arrays.copyOfRange(buf, off, off + len));
                    outputsOfLastPacket++;
                });
            }
            case "expect" -> {
                String[] p = rest.split("\\s+", 2);
                String pat = (p.length > 1 ? p[1] : "").replaceAll("\\s+", "");
                boolean exact = pat.endsWith("$");
                if (exact) {
                    pat = pat.substring(0, pat.length() - 1);
                }
                expected.computeIfAbsent(Integer.parseInt(p[0]), k -> new ArrayDeque<>()).add(new Expectation(line, pat.toLowerCase(), exact));
            }
            case "no_packet" -> {
                if (outputsOfLastPacket != 0) {
                    failures.add(file + ":" + line + ": expected no packet, but the last packet produced " + outputsOfLastPacket);
                }
            }
            case "wait" -> settle(line);
            case "mirroring_add" -> {
                String[] p = rest.split("\\s+");
                control.cloneSessionSet(Integer.parseInt(p[0]), Integer.parseInt(p[1]));
            }
            case "mc_mgrp_create" -> multicast.createGroup(Integer.parseInt(rest));
            case "mc_node_create" -> {
                String[] p = rest.split("\\s+");
                List<Integer> ports = new ArrayList<>();
                for (int i = 1; i < p.length; i++) {
                    ports.add(Integer.parseInt(p[i]));
                }
                multicast.createNode(Integer.parseInt(p[0]), ports);
            }
            case "mc_node_associate" -> {
                String[] p = rest.split("\\s+");
                multicast.associate(Integer.parseInt(p[0]), Integer.parseInt(p[1]));
            }
            case "register_write" -> {
                String[] p = rest.split("\\s+");
                control.registerWrite(p[0], Integer.parseInt(p[1]), number(p[2]));
            }
            case "pvs_add" -> {
                // p4sim extension, named as bmv2's runtime CLI command: pvs_add <value set> <value>
                String[] p = rest.split("\\s+");
                control.valueSetAdd(p[0], number(p[1]));
            }
            case "check_register" -> checkRegister(line, rest);
            case "check_counter" -> checkCounter(line, rest);
            default -> throw new IllegalArgumentException("unknown STF command '" + w[0] + "'");
        }
    }

    private void add(String rest) {
        // <table> [<priority>] key:value ... action(args)
        int paren = rest.indexOf('(');
        String head = paren < 0 ? rest : rest.substring(0, paren);
        String[] toks = head.strip().split("\\s+");
        String table = toks[0];
        String actionName = toks[toks.length - 1];
        String argText = paren < 0 ? "" : rest.substring(paren);
        TableRuntime t = tableRuntime(table);
        int priority = 0;
        int first = 1;
        if (toks.length > 2 && toks[1].matches("\\d+")) {
            priority = Integer.parseInt(toks[1]);
            first = 2;
        }
        Match[] match = new Match[t.kinds.length];
        for (int i = first; i < toks.length - 1; i++) {
            int colon = toks[i].lastIndexOf(':');
            if (colon < 0) {
                throw new IllegalArgumentException("key '" + toks[i] + "' is not name:value");
            }
            String key = toks[i].substring(0, colon);
            int idx = keyIndex(t, key);
            match[idx] = keyValue(toks[i].substring(colon + 1), t.kinds[idx]);
        }
        for (int i = 0; i < match.length; i++) {
            if (match[i] == null) {
                if (t.kinds[i] == TableRuntime.MatchKind.EXACT) {
                    throw new IllegalArgumentException("missing exact key " + t.keyNames[i] + " for table " + t.name);
                }
                match[i] = new Match.Wildcard();
            }
        }
        priority = t.usesPriority ? fromBmv2Priority(priority, first == 2) : 0;
        ActionText a = parseAction(table, actionName + argText);
        control.addEntry(new EntrySpec(table, List.of(match), priority, a.name, a.args));
    }

    /**
     * STF (like bmv2's runtime CLI) uses "smaller priority value wins"; the control API uses
     * P4Runtime's "larger wins". A missing priority is the lowest.
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

    private TableRuntime tableRuntime(String name) {
        return sw.tableRuntime(name);
    }

    private static int keyIndex(TableRuntime t, String key) {
        for (int i = 0; i < t.keyNames.length; i++) {
            if (t.keyNames[i].equals(key) || t.keyNames[i].endsWith("." + key)) {
                return i;
            }
        }
        throw new IllegalArgumentException("table " + t.name + " has no key field '" + key + "' (keys: " + Arrays.toString(t.keyNames) + ")");
    }

    private static Match keyValue(String v, TableRuntime.MatchKind kind) {
        if (v.equals("*")) {
            return new Match.Wildcard();
        }
        if (v.contains("*") && (v.startsWith("0x") || v.startsWith("0b"))) {
            // p4c STF ternary syntax: '*' digits are wildcards (a nibble in hex, a bit in binary)
            boolean hex = v.startsWith("0x");
            String digits = v.substring(2);
            BigInteger value = BigInteger.ZERO;
            BigInteger mask = BigInteger.ZERO;
            int bits = hex ? 4 : 1;
            BigInteger full = BigInteger.ONE.shiftLeft(bits).subtract(BigInteger.ONE);
            for (char ch : digits.toCharArray()) {
                value = value.shiftLeft(bits);
                mask = mask.shiftLeft(bits);
                if (ch != '*') {
                    value = value.or(BigInteger.valueOf(Character.digit(ch, hex ? 16 : 2)));
                    mask = mask.or(full);
                }
            }
            return new Match.Ternary(value, mask);
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
            return new Match.Lpm(number(p[0]), Integer.parseInt(p[1]));
        }
        return new Match.Exact(number(v));
    }

    private record ActionText(String name, List<BigInteger> args) { }

    /** {@code name(p:v, ...)} with named or positional arguments. */
    private ActionText parseAction(String table, String text) {
        int paren = text.indexOf('(');
        String name = (paren < 0 ? text : text.substring(0, paren)).strip();
        List<BigInteger> args = new ArrayList<>();
        if (paren >= 0) {
            String inner = text.substring(paren + 1, text.lastIndexOf(')')).strip();
            dev.innet.p4sim.runtime.ActionRuntime ar = sw.tableRuntime(table).action(name);
            if (ar == null) {
                throw new IllegalArgumentException("action '" + name + "' is not an action of table " + table);
            }
            BigInteger[] byPos = new BigInteger[ar.paramNames.length];
            if (!inner.isEmpty()) {
                String[] parts = inner.split(",");
                for (int i = 0; i < parts.length; i++) {
                    String part = parts[i].strip();
                    int colon = part.indexOf(':');
                    if (colon < 0) {
                        if (i >= byPos.length) {
                            throw new IllegalArgumentException("too many arguments for action " + name);
                        }
                        byPos[i] = number(part);
                        continue;
                    }
                    String pn = part.substring(0, colon).strip();
                    int idx = Arrays.asList(ar.paramNames).indexOf(pn);
                    if (idx < 0) {
                        throw new IllegalArgumentException("action " + name + " has no parameter '" + pn + "'");
                    }
                    byPos[idx] = number(part.substring(colon + 1).strip());
                }
            }
            for (int i = 0; i < byPos.length; i++) {
                if (byPos[i] == null) {
                    throw new IllegalArgumentException("missing argument '" + ar.paramNames[i] + "' for action " + name);
                }
                args.add(byPos[i]);
            }
        }
        return new ActionText(name, args);
    }

    private void checkCounter(int line, String rest) {
        // name(index) [packets|bytes] == value
        String[] p = rest.split("\\s+");
        String ref = p[0];
        String name = ref.substring(0, ref.indexOf('('));
        int index = Integer.parseInt(ref.substring(ref.indexOf('(') + 1, ref.indexOf(')')));
        boolean bytes = p.length > 1 && p[1].equals("bytes");
        long want = number(p[p.length - 1]).longValue();
        CounterValue v = control.counterRead(name, index);
        long got = bytes ? v.bytes() : v.packets();
        if (got != want) {
            failures.add(file + ":" + line + ": counter " + ref + (bytes ? " bytes" : " packets") + " is " + got + ", expected " + want);
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
        java.util.Set<Integer> ports = new java.util.TreeSet<>(expected.keySet());
        ports.addAll(received.keySet());
        for (int port : ports) {
            ArrayDeque<Expectation> exp = expected.getOrDefault(port, new ArrayDeque<>());
            ArrayDeque<byte[]> got = received.getOrDefault(port, new ArrayDeque<>());
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

    static byte[] hex(String s) {
        String h = s.replaceAll("\\s+", "");
        if (h.length() % 2 != 0) {
            throw new IllegalArgumentException("odd number of hex digits in packet data");
        }
        byte[] out = new byte[h.length() / 2];
        for (int i = 0; i < out.length; i++) {
            out[i] = (byte) Integer.parseInt(h.substring(2 * i, 2 * i + 2), 16);
        }
        return out;
    }

    static BigInteger number(String s) {
        String t = s.strip().replace("_", "");
        if (t.startsWith("0x") || t.startsWith("0X")) {
            return new BigInteger(t.substring(2), 16);
        }
        if (t.startsWith("0b") || t.startsWith("0B")) {
            return new BigInteger(t.substring(2), 2);
        }
        return new BigInteger(t);
    }
}
