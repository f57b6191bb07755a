package dev.innet.verify;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** Command-line options of the verification runner. */
record Options(Path root, List<Path> paths, boolean small, boolean full, int jobs, Duration smallLimit,
        Duration fullLimit, boolean help) {

    static final String USAGE = """
            usage: innet verify [--full | --tier small|full|all] [--jobs N] [path ...]
                   innet check  [--full | --tier ...] path ...

              path     a spec or Ivy model directory holding a MANIFEST (specs/farreach), a directory of
                       them (specs, models), or one model file (specs/farreach/MCFarReach.tla); default:
                       specs models
              --full   the full tier only (large models; long)     --tier all   both tiers
              --jobs N checker runs at a time (default: number of cores for small, 1 for full)
            A model file given by name runs whatever its tier.""";

    boolean includes(ManifestEntry.Tier tier) {
        return tier == ManifestEntry.Tier.SMALL ? small : full;
    }

    String tierName() {
        return small && full ? "all" : small ? "small" : "full";
    }

    static Options parse(String[] args) {
        Path root = Path.of(System.getProperty("innet.root", ".")).toAbsolutePath().normalize();
        List<Path> paths = new ArrayList<>();
        boolean small = true;
        boolean full = false;
        Integer jobs = null;
        boolean help = false;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            switch (a) {
                case "--full" -> {
                    small = false;
                    full = true;
                }
                case "--tier" -> {
                    String t = value(args, ++i, a);
                    small = t.equals("small") || t.equals("all");
                    full = t.equals("full") || t.equals("all");
                    if (!small && !full) {
                        throw new IllegalArgumentException("--tier takes small, full or all");
                    }
                }
                case "--jobs" -> {
                    jobs = Integer.parseInt(value(args, ++i, a));
                    if (jobs < 1) {
                        throw new IllegalArgumentException("--jobs must be at least 1");
                    }
                }
                case "-h", "--help" -> help = true;
                default -> {
                    if (a.startsWith("-")) {
                        throw new IllegalArgumentException("unknown option " + a);
                    }
                    paths.add(Path.of(a));
                }
            }
        }
        if (paths.isEmpty()) {
            for (String d : List.of("specs", "models")) {
                if (root.resolve(d).toFile().isDirectory()) {
                    paths.add(root.resolve(d));
                }
            }
        }
        int cores = Runtime.getRuntime().availableProcessors();
        int chosenJobs = jobs != null ? jobs : (full && !small ? 1 : cores);
        return new Options(root, paths, small, full, chosenJobs, Duration.ofMinutes(5), Duration.ofHours(3), help);
    }

    private static String value(String[] args, int i, String option) {
        if (i >= args.length) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return args[i];
    }
}
