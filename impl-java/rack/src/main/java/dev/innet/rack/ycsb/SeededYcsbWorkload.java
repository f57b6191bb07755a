package dev.innet.rack.ycsb;

import dev.innet.rack.workload.OperationChooser;
import dev.innet.rack.workload.RankSpaceZipfian;
import dev.innet.rack.workload.ZipfianGenerator;
import dev.innet.sim.RandomSource;
import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.Set;
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
 * popularity with YCSB's generators'. Not supported (refused with a message): scans, the
 * distributions hotspot, sequential and exponential, and field lengths that vary; YCSB's own client has
 * them ({@code ./innet ycsb}, docs/ycsb.md).
 *
 * <p>A rack client running this chooser writes values of {@link #valueBytes()}: the record's fields
 * without their names (innet values are opaque bytes). With {@code fieldcount=1} an update replaces the
 * whole record, as YCSB's update of one field (its default, {@code writeallfields=false}) does then.
 */
public final class SeededYcsbWorkload implements OperationChooser {
    private final long records;
    private final long keySpace;
    private final String distribution;
    private final int valueBytes;
    private final List<Kind> kinds = new ArrayList<>();
    private final List<Double> cumulative = new ArrayList<>();
    /** The operation proportions as given, for {@link #toString()}. */
    private final StringBuilder mix = new StringBuilder();
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
        distribution = p.getProperty(CoreWorkload.REQUEST_DISTRIBUTION_PROPERTY,
                CoreWorkload.REQUEST_DISTRIBUTION_PROPERTY_DEFAULT).toLowerCase(Locale.ROOT);
        valueBytes = recordBytes(p);
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
                // zeta in closed form beyond 10^6 terms: summing it for the FarReach bench's 10^8 records
                // would take seconds per rack run
                double theta = site.ycsb.generator.ZipfianGenerator.ZIPFIAN_CONSTANT;
                latest = new ZipfianGenerator(records - 1, theta, false, RankSpaceZipfian.zeta(records - 1, theta));
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

    /** The bytes of a record's fields, fieldcount x fieldlength (YCSB's defaults: 10 x 100). */
    public int valueBytes() {
        return valueBytes;
    }

    /**
     * The {@code n} keys the request distribution makes most popular now, hottest first, among the keys
     * that exist (0 .. recordcount + inserts so far - 1): what a benchmark preloads into a cache.
     * <ul>
     * <li>zipfian: the keys of ranks 0, 1, 2, ... through YCSB's scrambling, each once, skipping keys not
     * inserted yet. A key that several ranks land on is placed by its first (its popularity is the sum, so
     * it may deserve a higher place; with the 10^10 ranks spread over many more keys than {@code n} that is
     * rare). The search gives up after 100 x n ranks, returning fewer keys: only a key space mostly of keys
     * not inserted yet, or not much larger than n, gets that far, and so far down the ranks' order says
     * little against the near-uniform background that all 10^10 ranks lay over the keys.
     * <li>latest: the newest keys, newest first (key 0 is never drawn: YCSB counts back at most to 1).
     * <li>uniform: none; no key is hotter than another.
     * </ul>
     */
    public List<Long> hottestKeys(int n) {
        if (n < 0) {
            throw new IllegalArgumentException("hottestKeys needs n >= 0, got " + n);
        }
        long last = records + inserted - 1;
        List<Long> hottest = new ArrayList<>();
        if (latest != null) {
            for (long key = last; key >= 1 && hottest.size() < n; key--) {
                hottest.add(key);
            }
        } else if (zipfian != null) {
            Set<Long> found = new LinkedHashSet<>();
            for (long rank = 0; found.size() < Math.min(n, last + 1) && rank < 100L * n; rank++) {
                long key = scrambled(rank);
                if (key <= last) {
                    found.add(key);
                }
            }
            hottest.addAll(found);
        }
        return hottest;
    }

    /** The key a zipfian rank lands on: YCSB's ScrambledZipfianGenerator hashes it onto the key space. */
    private long scrambled(long rank) {
        return Utils.fnvhash64(rank) % keySpace;
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
            key = zipfian == null ? random.nextLong(keySpace) : scrambled(zipfian.next(random));
        } while (key > last); // a key not inserted yet: CoreWorkload draws again
        return new Choice(kind, key);
    }

    /** The settings (not the state): two workloads with the same text draw alike from the same seed. */
    @Override
    public String toString() {
        return "SeededYcsbWorkload[" + mix + "requestdistribution=" + distribution + " recordcount=" + records
                + " keyspace=" + keySpace + " valuebytes=" + valueBytes + "]";
    }

    private static int recordBytes(Properties p) {
        String lengths = p.getProperty(CoreWorkload.FIELD_LENGTH_DISTRIBUTION_PROPERTY,
                CoreWorkload.FIELD_LENGTH_DISTRIBUTION_PROPERTY_DEFAULT);
        if (!lengths.strip().equalsIgnoreCase("constant")) {
            throw new IllegalArgumentException(CoreWorkload.FIELD_LENGTH_DISTRIBUTION_PROPERTY + "=" + lengths
                    + " is not supported by the seeded adapter (constant): rack values have one length");
        }
        long count = positiveLong(p, CoreWorkload.FIELD_COUNT_PROPERTY, CoreWorkload.FIELD_COUNT_PROPERTY_DEFAULT);
        long length = positiveLong(p, CoreWorkload.FIELD_LENGTH_PROPERTY, CoreWorkload.FIELD_LENGTH_PROPERTY_DEFAULT);
        if (count > Integer.MAX_VALUE / length) {
            throw new IllegalArgumentException("fieldcount x fieldlength (" + count + " x " + length
                    + ") is too large for a value");
        }
        return (int) (count * length);
    }

    private void addKind(Properties p, String name, String defaultValue, Kind kind) {
        double share = proportion(p, name, defaultValue);
        if (share > 0) {
            mix.append(name).append('=').append(share).append(' ');
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
