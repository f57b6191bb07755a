package dev.innet.rack.ycsb;

import dev.innet.rack.workload.OperationChooser;
import dev.innet.rack.workload.ZipfianGenerator;
import dev.innet.sim.RandomSource;
import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import site.ycsb.Utils;
import site.ycsb.generator.ScrambledZipfianGenerator;
import site.ycsb.workloads.CoreWorkload;

/**
 * YCSB's core workload (CoreWorkload's operation chooser and key chooser) as an {@link OperationChooser}
 * whose every random number comes from the caller's seeded source, so a demo or benchmark run replays
 * from its seed. YCSB 0.17.0's generators draw from {@code ThreadLocalRandom}, which cannot be seeded;
 * this class therefore takes from YCSB everything but the random numbers: the workload's properties
 * with CoreWorkload's names and defaults, the operation mix, the key space (recordcount plus YCSB's
 * allowance for inserted keys, keys not inserted yet drawn again, as CoreWorkload does), and for
 * {@code requestdistribution=zipfian} YCSB's scrambled zipfian: a zipfian rank over YCSB's
 * {@code ScrambledZipfianGenerator.ITEM_COUNT} items with its published {@code ZETAN} and constant 0.99,
 * by the same method (Gray et al.), scrambled with YCSB's own {@code Utils.fnvhash64}; for
 * {@code latest}, YCSB's skewed-latest: a zipfian (constant 0.99) over the keys up to the newest one,
 * counted back from it, its zeta extended as inserts add keys. The test compares the resulting key
 * popularity with YCSB's generators'. Not supported (refused with a message): scans, and the
 * distributions hotspot, sequential and exponential; YCSB's own client has them
 * ({@code ./innet ycsb}, docs/ycsb.md).
 */
public final class SeededYcsbWorkload implements OperationChooser {
    private final long records;
    private final long keySpace;
    private final List<Kind> kinds = new ArrayList<>();
    private final List<Double> cumulative = new ArrayList<>();
    private final ZipfianGenerator zipfian; // requestdistribution=zipfian, else null
    /** requestdistribution=latest: ranks back from the newest key, over a key space that grows with inserts. */
    private ZipfianGenerator latest;
    private long inserted;

    private SeededYcsbWorkload(Properties p) {
        records = positiveLong(p, "recordcount", "0");
        if (!p.getProperty("insertstart", "0").strip().equals("0")) {
            throw new IllegalArgumentException("insertstart is not supported (keys are 0..recordcount-1)");
        }
        addKind(p, CoreWorkload.READ_PROPORTION_PROPERTY, CoreWorkload.READ_PROPORTION_PROPERTY_DEFAULT, Kind.READ);
        addKind(p, CoreWorkload.UPDATE_PROPORTION_PROPERTY, CoreWorkload.UPDATE_PROPORTION_PROPERTY_DEFAULT, Kind.UPDATE);
        addKind(p, CoreWorkload.INSERT_PROPORTION_PROPERTY, CoreWorkload.INSERT_PROPORTION_PROPERTY_DEFAULT, Kind.INSERT);
        addKind(p, CoreWorkload.READMODIFYWRITE_PROPORTION_PROPERTY, CoreWorkload.READMODIFYWRITE_PROPORTION_PROPERTY_DEFAULT,
                Kind.READ_MODIFY_WRITE);
        if (proportion(p, CoreWorkload.SCAN_PROPORTION_PROPERTY, CoreWorkload.SCAN_PROPORTION_PROPERTY_DEFAULT) > 0) {
            throw new IllegalArgumentException("scanproportion > 0: range scans are not a key-value cache's operation");
        }
        if (kinds.isEmpty()) {
            throw new IllegalArgumentException("every operation proportion is 0");
        }
        String distribution = p.getProperty(CoreWorkload.REQUEST_DISTRIBUTION_PROPERTY,
                CoreWorkload.REQUEST_DISTRIBUTION_PROPERTY_DEFAULT).toLowerCase(Locale.ROOT);
        // CoreWorkload: the key chooser's range leaves room for twice the inserts the run expects
        double insertShare = proportion(p, CoreWorkload.INSERT_PROPORTION_PROPERTY, CoreWorkload.INSERT_PROPORTION_PROPERTY_DEFAULT);
        long operations = Long.parseLong(p.getProperty("operationcount", "0"));
        switch (distribution) {
            case "uniform" -> {
                keySpace = records;
                zipfian = null;
            }
            case "zipfian" -> {
                keySpace = records + (long) (operations * insertShare * 2.0) + 1;
                zipfian = new ZipfianGenerator(ScrambledZipfianGenerator.ITEM_COUNT + 1,
                        ScrambledZipfianGenerator.USED_ZIPFIAN_CONSTANT, false, ScrambledZipfianGenerator.ZETAN);
            }
            case "latest" -> {
                // SkewedLatestGenerator: a zipfian over the keys up to the newest, counted back from it
                if (records < 2) {
                    throw new IllegalArgumentException("requestdistribution=latest needs recordcount >= 2");
                }
                keySpace = records;
                zipfian = null;
                latest = new ZipfianGenerator(records - 1, site.ycsb.generator.ZipfianGenerator.ZIPFIAN_CONSTANT, false);
            }
            default -> throw new IllegalArgumentException("requestdistribution=" + distribution
                    + " is not supported by the seeded adapter (uniform, zipfian, latest); ./innet ycsb runs YCSB's own client, which has it");
        }
    }

    /** From YCSB properties (a workload file's, with any -p overrides applied by the caller). */
    public static SeededYcsbWorkload of(Properties p) {
        return new SeededYcsbWorkload(p);
    }

    /** From a YCSB workload file, e.g. YCSB's own workloads/workloada, then {@code overrides} on top. */
    public static SeededYcsbWorkload fromFile(Path workloadFile, Properties overrides) throws IOException {
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(workloadFile)) {
            p.load(r);
        }
        p.putAll(overrides);
        return of(p);
    }

    /** The records a load phase writes: keys 0..recordCount-1. */
    public long recordCount() {
        return records;
    }

    @Override
    public Choice next(RandomSource random) {
        double total = cumulative.get(cumulative.size() - 1);
        double u = random.nextDouble() * total;
        Kind kind = kinds.get(kinds.size() - 1);
        for (int i = 0; i < kinds.size(); i++) {
            if (u < cumulative.get(i)) {
                kind = kinds.get(i);
                break;
            }
        }
        if (kind == Kind.INSERT) {
            return new Choice(kind, records + inserted++);
        }
        long last = records + inserted - 1;
        if (latest != null) {
            if (latest.items() != last) {
                latest = latest.grownTo(last);
            }
            return new Choice(kind, last - latest.next(random));
        }
        long key;
        do {
            key = zipfian == null ? random.nextLong(keySpace) : Utils.fnvhash64(zipfian.next(random)) % keySpace;
        } while (key > last); // a key not inserted yet: CoreWorkload draws again
        return new Choice(kind, key);
    }

    private void addKind(Properties p, String name, String defaultValue, Kind kind) {
        double share = proportion(p, name, defaultValue);
        if (share > 0) {
            double before = cumulative.isEmpty() ? 0 : cumulative.get(cumulative.size() - 1);
            kinds.add(kind);
            cumulative.add(before + share);
        }
    }

    private static double proportion(Properties p, String name, String defaultValue) {
        String v = p.getProperty(name, defaultValue);
        try {
            double d = Double.parseDouble(v);
            if (d < 0 || Double.isNaN(d) || d > 1) {
                throw new NumberFormatException();
            }
            return d;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " must be a proportion in [0, 1], got '" + v + "'");
        }
    }

    private static long positiveLong(Properties p, String name, String defaultValue) {
        String v = p.getProperty(name, defaultValue);
        try {
            long n = Long.parseLong(v.strip());
            if (n < 1) {
                throw new NumberFormatException();
            }
            return n;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " must be a positive integer, got '" + v + "'");
        }
    }
}
