package dev.innet.verify;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

/** The table ./innet verify prints: one row per run, every figure taken from that run. */
final class ResultTable {
    private static final String[] HEADER = {"spec", "model", "tier", "model size / variant", "states", "checked",
        "result", "time"};
    private static final int NOTE_WIDTH = 44;

    private ResultTable() {}

    static void print(List<Judgement> rows, PrintStream out) {
        List<String[]> cells = new ArrayList<>();
        cells.add(HEADER);
        for (Judgement j : rows) {
            ManifestEntry e = j.entry();
            RunOutcome o = j.outcome();
            cells.add(new String[] {
                (e.kind() == ManifestEntry.Kind.IVY ? "ivy:" : "tla:") + e.spec(), e.model(), e.tier().name().toLowerCase(),
                truncate(e.note(), NOTE_WIDTH),
                e.tier() == ManifestEntry.Tier.SIM ? states(o.generatedStates()) + " gen" : states(o.distinctStates()),
                o.propertiesChecked().isEmpty() ? "-" : Integer.toString(o.propertiesChecked().size()),
                j.summary(), seconds(o.millis())});
        }
        int[] widths = new int[HEADER.length];
        for (String[] row : cells) {
            for (int i = 0; i < row.length; i++) {
                widths[i] = Math.max(widths[i], row[i].length());
            }
        }
        for (int r = 0; r < cells.size(); r++) {
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < widths.length; i++) {
                line.append(String.format("%-" + widths[i] + "s", cells.get(r)[i]));
                if (i + 1 < widths.length) {
                    line.append("  ");
                }
            }
            out.println(line.toString().stripTrailing());
            if (r == 0) {
                out.println("-".repeat(line.length()));
            }
        }
    }

    static String states(OptionalLong n) {
        return n.isPresent() ? String.format("%,d", n.getAsLong()) : "-";
    }

    static String seconds(long millis) {
        return String.format("%.1fs", millis / 1000.0);
    }

    private static String truncate(String s, int width) {
        return s.length() <= width ? s : s.substring(0, width - 1) + "…";
    }
}
