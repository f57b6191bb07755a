package dev.innet.p4sim.coverage;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An immutable snapshot of a P4 program's coverage: every {@link CoveragePoint} with the number of
 * times it happened. Snapshots of several switches running the same program {@link #merge} into one
 * (a suite replays many traces, each on a fresh switch).
 */
public final class Coverage {
    private final List<CoveragePoint> points;
    private final long[] counts;

    private Coverage(List<CoveragePoint> points, long[] counts) {
        this.points = points;
        this.counts = counts;
    }

    public static Coverage of(List<CoveragePoint> points, long[] counts) {
        if (points.size() != counts.length) {
            throw new IllegalArgumentException(points.size() + " points but " + counts.length + " counts");
        }
        return new Coverage(List.copyOf(points), counts.clone());
    }

    /** No points: the identity of {@link #merge}. */
    public static Coverage empty() {
        return new Coverage(List.of(), new long[0]);
    }

    /** In the order the compiler met them. */
    public List<CoveragePoint> points() {
        return points;
    }

    public long count(int index) {
        return counts[index];
    }

    /** The count of the point with this {@link CoveragePoint#key}, or -1 if there is none. */
    public long count(String key) {
        for (int i = 0; i < points.size(); i++) {
            if (points.get(i).key().equals(key)) {
                return counts[i];
            }
        }
        return -1;
    }

    /** Points matched by key and counts added; points only one side has are kept with their count. */
    public Coverage merge(Coverage other) {
        Map<String, Integer> index = new LinkedHashMap<>();
        List<CoveragePoint> all = new ArrayList<>(points);
        for (int i = 0; i < points.size(); i++) {
            index.put(points.get(i).key(), i);
        }
        long[] sum = Arrays.copyOf(counts, points.size() + other.points.size());
        for (int i = 0; i < other.points.size(); i++) {
            CoveragePoint p = other.points.get(i);
            Integer at = index.get(p.key());
            if (at == null) {
                at = all.size();
                index.put(p.key(), at);
                all.add(p);
            }
            sum[at] += other.counts[i];
        }
        return new Coverage(List.copyOf(all), Arrays.copyOf(sum, all.size()));
    }

    /**
     * The same counts with file names under {@code dir} written relative to it (positions name files as
     * the compiler was given them: absolute when the program was given by an absolute path).
     */
    public Coverage relativeTo(java.nio.file.Path dir) {
        java.nio.file.Path base = dir.toAbsolutePath().normalize();
        List<CoveragePoint> out = new ArrayList<>(points.size());
        for (CoveragePoint p : points) {
            String file = p.file();
            java.nio.file.Path f = java.nio.file.Path.of(file);
            if (f.isAbsolute() && f.normalize().startsWith(base)) {
                file = base.relativize(f.normalize()).toString();
            }
            out.add(new CoveragePoint(p.kind(), file, p.line(), p.col(), p.name(), p.outcome(), p.text(), p.registerGuard()));
        }
        return new Coverage(List.copyOf(out), counts);
    }

    /** Points never hit, by file, line and column. */
    public List<CoveragePoint> unexercised() {
        List<CoveragePoint> out = new ArrayList<>();
        for (int i = 0; i < points.size(); i++) {
            if (counts[i] == 0) {
                out.add(points.get(i));
            }
        }
        out.sort(Comparator.comparing(CoveragePoint::file).thenComparingInt(CoveragePoint::line)
                .thenComparingInt(CoveragePoint::col));
        return out;
    }

    /** Hit and total points per kind; register guards are also counted among the branches. */
    public record Summary(int tablesHit, int tables, int actionsHit, int actions, int branchesHit, int branches,
                          int guardsHit, int guards) {
        @Override
        public String toString() {
            return "tables " + tablesHit + "/" + tables + ", actions " + actionsHit + "/" + actions + ", branches "
                    + branchesHit + "/" + branches + ", register guards " + guardsHit + "/" + guards;
        }
    }

    public Summary summary() {
        int[] hit = new int[4];
        int[] all = new int[4];
        for (int i = 0; i < points.size(); i++) {
            CoveragePoint p = points.get(i);
            int k = p.kind().ordinal();
            all[k]++;
            hit[k] += counts[i] > 0 ? 1 : 0;
            if (p.registerGuard()) {
                all[3]++;
                hit[3] += counts[i] > 0 ? 1 : 0;
            }
        }
        return new Summary(hit[0], all[0], hit[1], all[1], hit[2], all[2], hit[3], all[3]);
    }

    /** Every point with its count, as a JSON document: {@code {"summary": {...}, "points": [...]}}. */
    public String toJson() {
        Summary s = summary();
        StringBuilder b = new StringBuilder();
        b.append("{\n  \"summary\": {\"tables\": [").append(s.tablesHit()).append(", ").append(s.tables())
                .append("], \"actions\": [").append(s.actionsHit()).append(", ").append(s.actions())
                .append("], \"branches\": [").append(s.branchesHit()).append(", ").append(s.branches())
                .append("], \"registerGuards\": [").append(s.guardsHit()).append(", ").append(s.guards())
                .append("]},\n  \"points\": [");
        for (int i = 0; i < points.size(); i++) {
            CoveragePoint p = points.get(i);
            b.append(i == 0 ? "\n" : ",\n").append("    {\"kind\": ").append(quote(p.kindLabel()))
                    .append(", \"file\": ").append(quote(p.file())).append(", \"line\": ").append(p.line())
                    .append(", \"col\": ").append(p.col()).append(", \"name\": ").append(quote(p.name()))
                    .append(", \"outcome\": ").append(quote(p.outcome())).append(", \"count\": ").append(counts[i])
                    .append(", \"text\": ").append(quote(p.text())).append('}');
        }
        return b.append("\n  ]\n}\n").toString();
    }

    private static String quote(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\t' -> b.append("\\t");
                case '\r' -> b.append("\\r");
                default -> {
                    if (c < 0x20) {
                        b.append(String.format("\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        return b.append('"').toString();
    }
}
