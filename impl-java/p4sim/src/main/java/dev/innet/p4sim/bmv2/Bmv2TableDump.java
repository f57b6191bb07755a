package dev.innet.p4sim.bmv2;

import dev.innet.p4sim.stf.StfRunner;
import dev.innet.switchapi.ControlException;
import dev.innet.switchapi.EntrySpec;
import dev.innet.switchapi.Match;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The output of bmv2's {@code table_dump TABLE} read back into entries: blocks that start
 * {@code Dumping entry 0xH}, then {@code * FIELD : KIND VALUE} lines (EXACT {@code v}, LPM {@code v/len},
 * TERNARY {@code v &&& m}, RANGE {@code lo -> hi}, hex without 0x), an optional {@code Priority: P} (bmv2's:
 * smaller wins) and {@code Action entry: ACTION - a, b} (hex); then the default entry's {@code Action entry}.
 */
record Bmv2TableDump(List<Entry> entries, EntrySpec defaultAction) {
    record Entry(int handle, EntrySpec spec) { }

    static Bmv2TableDump parse(String table, List<String> lines) {
        List<Entry> entries = new ArrayList<>();
        EntrySpec defaultAction = null;
        Integer handle = null;
        List<Match> match = new ArrayList<>();
        int priority = 0;
        boolean inDefault = false;
        for (String raw : lines) {
            String l = raw.strip();
            if (l.startsWith("Dumping entry 0x")) {
                handle = Integer.parseInt(l.substring("Dumping entry 0x".length()).strip(), 16);
                match = new ArrayList<>();
                priority = 0;
            } else if (l.toLowerCase(Locale.ROOT).contains("default entry")) {
                inDefault = true;
                handle = null;
            } else if (l.startsWith("* ") && handle != null) {
                match.add(matchOf(l.substring(l.indexOf(':') + 1).strip(), l));
            } else if (l.startsWith("Priority:") && handle != null) {
                priority = StfRunner.BMV2_PRIORITY_LIMIT - Integer.parseInt(l.substring("Priority:".length()).strip());
            } else if (l.startsWith("Action entry:")) {
                String body = l.substring("Action entry:".length()).strip();
                int dash = body.indexOf(" -");
                String action = (dash < 0 ? body : body.substring(0, dash)).strip();
                List<BigInteger> args = new ArrayList<>();
                if (dash >= 0) {
                    for (String a : body.substring(dash + 2).split(",")) {
                        if (!a.isBlank()) {
                            args.add(new BigInteger(a.strip(), 16));
                        }
                    }
                }
                if (handle != null) {
                    entries.add(new Entry(handle, new EntrySpec(table, List.copyOf(match), priority, action, args)));
                    handle = null;
                } else if (inDefault) {
                    defaultAction = new EntrySpec(table, List.of(), 0, action, args);
                }
            }
        }
        return new Bmv2TableDump(entries, defaultAction);
    }

    private static Match matchOf(String kindAndValue, String line) {
        String[] w = kindAndValue.split("\\s+", 2);
        if (w.length < 2) {
            throw new ControlException("table_dump: cannot read the match field '" + line + "'");
        }
        String v = w[1].strip();
        return switch (w[0].toUpperCase(Locale.ROOT)) {
            case "EXACT" -> new Match.Exact(new BigInteger(v, 16));
            case "LPM" -> {
                String[] p = v.split("/");
                yield new Match.Lpm(new BigInteger(p[0].strip(), 16), Integer.parseInt(p[1].strip()));
            }
            case "TERNARY" -> {
                String[] p = v.split("&&&");
                yield new Match.Ternary(new BigInteger(p[0].strip(), 16), new BigInteger(p[1].strip(), 16));
            }
            case "RANGE" -> {
                String[] p = v.split("->");
                yield new Match.Range(new BigInteger(p[0].strip(), 16), new BigInteger(p[1].strip(), 16));
            }
            default -> throw new ControlException("table_dump: unknown match kind in '" + line + "'");
        };
    }
}
