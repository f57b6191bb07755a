package dev.innet.rack.ycsb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.innet.rack.workload.OperationChooser;
import dev.innet.sim.SeededRandom;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import site.ycsb.Utils;
import site.ycsb.generator.CounterGenerator;
import site.ycsb.generator.ScrambledZipfianGenerator;
import site.ycsb.generator.SkewedLatestGenerator;

class SeededYcsbWorkloadTest {
    private static Properties workload(String... settings) {
        Properties p = new Properties();
        p.setProperty("recordcount", "1000");
        p.setProperty("operationcount", "1000");
        for (String s : settings) {
            String[] kv = s.split("=", 2);
            p.setProperty(kv[0], kv[1]);
        }
        return p;
    }

    private static final Properties A = workload("readproportion=0.5", "updateproportion=0.5", "requestdistribution=zipfian");

    private static List<OperationChooser.Choice> draw(Properties p, long seed, int n) {
        SeededYcsbWorkload w = SeededYcsbWorkload.of(p);
        SeededRandom r = new SeededRandom(seed);
        List<OperationChooser.Choice> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(w.next(r));
        }
        return out;
    }

    @Test
    void theSameSeedReplaysTheSameOperations() {
        assertEquals(draw(A, 7, 5_000), draw(A, 7, 5_000));
        assertNotEquals(draw(A, 7, 5_000), draw(A, 8, 5_000));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"a,0.5,0.5,0,0", "b,0.95,0.05,0,0", "c,1,0,0,0", "f,0.5,0,0,0.5", "insert-heavy,0.5,0,0.5,0"})
    void theOperationMixIsTheWorkloads(String name, double read, double update, double insert, double rmw) {
        Properties p = workload("readproportion=" + read, "updateproportion=" + update, "insertproportion=" + insert,
                "readmodifywriteproportion=" + rmw, "requestdistribution=zipfian");
        int n = 40_000;
        Map<OperationChooser.Kind, Integer> seen = new EnumMap<>(OperationChooser.Kind.class);
        for (OperationChooser.Choice c : draw(p, 1, n)) {
            seen.merge(c.kind(), 1, Integer::sum);
        }
        assertShare(read, seen.getOrDefault(OperationChooser.Kind.READ, 0), n);
        assertShare(update, seen.getOrDefault(OperationChooser.Kind.UPDATE, 0), n);
        assertShare(insert, seen.getOrDefault(OperationChooser.Kind.INSERT, 0), n);
        assertShare(rmw, seen.getOrDefault(OperationChooser.Kind.READ_MODIFY_WRITE, 0), n);
    }

    private static void assertShare(double expected, int count, int n) {
        assertEquals(expected, (double) count / n, 0.01, "share " + count + "/" + n);
    }

    @Test
    void insertsWriteNewKeysAndOthersOnlyKeysThatExist() {
        Properties p = workload("readproportion=0.5", "insertproportion=0.5", "requestdistribution=zipfian");
        long next = 1000;
        for (OperationChooser.Choice c : draw(p, 3, 2_000)) {
            if (c.kind() == OperationChooser.Kind.INSERT) {
                assertEquals(next++, c.key());
            } else {
                assertTrue(c.key() >= 0 && c.key() < next, "read of key " + c.key() + " before it was inserted");
            }
        }
    }

    private static final int DRAWS = 200_000;

    /** How often each key is drawn by the adapter with {@code distribution}, reads only. */
    private static Map<Long, Integer> ourPopularity(String distribution, long seed) {
        Map<Long, Integer> ours = new HashMap<>();
        for (OperationChooser.Choice c : draw(workload("readproportion=1", "requestdistribution=" + distribution), seed, DRAWS)) {
            ours.merge(c.key(), 1, Integer::sum);
        }
        return ours;
    }

    /** The five most popular keys are the same in both, with counts within 10%; returns them. */
    private static List<Long> assertSamePopularKeys(Map<Long, Integer> ours, Map<Long, Integer> theirs) {
        List<Long> ourTop = top(ours, 5);
        assertEquals(ourTop, top(theirs, 5), "most popular keys: ours " + ours + "\nYCSB's " + theirs);
        for (long k : ourTop) {
            assertEquals(theirs.get(k), ours.get(k), theirs.get(k) * 0.1, "draws of key " + k);
        }
        return ourTop;
    }

    /** The keys' popularity is YCSB's: compared with YCSB's own ScrambledZipfianGenerator over the same keys. */
    @Test
    void keyPopularityMatchesYcsbsScrambledZipfian() {
        // CoreWorkload with no inserts: ScrambledZipfianGenerator(0, recordcount + 0); keys >= recordcount drawn again
        ScrambledZipfianGenerator ycsb = new ScrambledZipfianGenerator(0, 1000);
        Map<Long, Integer> theirs = new HashMap<>();
        for (int drawn = 0; drawn < DRAWS; ) {
            long k = ycsb.nextValue();
            if (k < 1000) {
                theirs.merge(k, 1, Integer::sum);
                drawn++;
            }
        }
        assertSamePopularKeys(ourPopularity("zipfian", 11), theirs);
    }

    /** As above for requestdistribution=latest, against YCSB's SkewedLatestGenerator over the same keys. */
    @Test
    void latestKeyPopularityMatchesYcsbsSkewedLatest() {
        SkewedLatestGenerator ycsb = new SkewedLatestGenerator(new CounterGenerator(1000)); // newest key: 999
        Map<Long, Integer> theirs = new HashMap<>();
        for (int i = 0; i < DRAWS; i++) {
            theirs.merge(ycsb.nextValue(), 1, Integer::sum);
        }
        assertEquals(List.of(995L, 996L, 997L, 998L, 999L), assertSamePopularKeys(ourPopularity("latest", 5), theirs),
                "the newest keys are the most popular");
    }

    @Test
    void withLatestAnInsertedKeyIsAtOnceTheMostPopular() {
        Properties p = workload("readproportion=0.5", "insertproportion=0.5", "requestdistribution=latest");
        long newest = 999;
        int readsOfNewest = 0;
        int reads = 0;
        for (OperationChooser.Choice c : draw(p, 9, 20_000)) {
            if (c.kind() == OperationChooser.Kind.INSERT) {
                newest = c.key();
            } else {
                reads++;
                assertTrue(c.key() >= 1 && c.key() <= newest, "key " + c.key() + " with the newest " + newest);
                readsOfNewest += c.key() == newest ? 1 : 0;
            }
        }
        // rank 0 of a zipfian (0.99) over 1,000 to 11,000 keys: 1/zeta(n), 0.10 to 0.13
        assertEquals(0.11, (double) readsOfNewest / reads, 0.03);
    }

    /** The {@code n} keys drawn most often, most often first. */
    private static List<Long> mostDrawn(Map<Long, Integer> counts, int n) {
        return counts.entrySet().stream().sorted(Map.Entry.<Long, Integer>comparingByValue(Comparator.reverseOrder()))
                .limit(n).map(Map.Entry::getKey).toList();
    }

    /** Reads per key over {@code DRAWS} operations of {@code w}, of keys below {@code below} only. */
    private static Map<Long, Integer> readsPerKey(Properties w, long seed, long below) {
        Map<Long, Integer> reads = new HashMap<>();
        for (OperationChooser.Choice c : draw(w, seed, DRAWS)) {
            if (c.kind() == OperationChooser.Kind.READ && c.key() < below) {
                reads.merge(c.key(), 1, Integer::sum);
            }
        }
        return reads;
    }

    /** hottestKeys names the keys the draws favour, in their order: what the FarReach bench preloads. */
    @ParameterizedTest(name = "{0}")
    @CsvSource({"zipfian", "latest"})
    void theHottestKeysAreTheMostDrawnInOrder(String distribution) {
        Properties p = workload("recordcount=100000", "readproportion=1", "requestdistribution=" + distribution);
        List<Long> hottest = SeededYcsbWorkload.of(p).hottestKeys(5);
        assertEquals(mostDrawn(readsPerKey(p, 13, Long.MAX_VALUE), 5), hottest);
        if (distribution.equals("latest")) {
            assertEquals(List.of(99_999L, 99_998L, 99_997L, 99_996L, 99_995L), hottest, "the newest keys");
        }
    }

    /**
     * With inserts expected, YCSB's zipfian hashes ranks onto a key space larger than the records: ranks
     * landing on keys not inserted yet are skipped, and the rest are the most read of the existing keys.
     */
    @Test
    void zipfiansHottestKeysSkipKeysNotInsertedYet() {
        // room for 100,000 x 0.05 x 2 = 10,000 inserts: the key space is 20,001 keys, half of them absent
        Properties p = workload("recordcount=10000", "operationcount=100000", "readproportion=0.95",
                "insertproportion=0.05", "requestdistribution=zipfian");
        long keySpace = 20_001;
        assertTrue(java.util.stream.LongStream.range(0, 5).anyMatch(rank -> Utils.fnvhash64(rank) % keySpace >= 10_000),
                "the premise: one of the five hottest ranks lands on a key not inserted yet");
        List<Long> hottest = SeededYcsbWorkload.of(p).hottestKeys(5);
        assertTrue(hottest.stream().allMatch(k -> k < 10_000), "only existing keys: " + hottest);
        assertEquals(mostDrawn(readsPerKey(p, 17, 10_000), 5), hottest);
    }

    @Test
    void hottestKeysAreDistinctFollowInsertsAndUniformHasNone() {
        SeededYcsbWorkload zipfian = SeededYcsbWorkload.of(workload("recordcount=1000", "requestdistribution=zipfian"));
        List<Long> all = zipfian.hottestKeys(5_000);
        assertEquals(1000, all.size(), "every existing key once, none twice");
        assertEquals(1000, new java.util.HashSet<>(all).size());

        SeededYcsbWorkload latest = SeededYcsbWorkload.of(workload("insertproportion=1", "readproportion=0",
                "updateproportion=0", "requestdistribution=latest"));
        SeededRandom r = new SeededRandom(1);
        for (int i = 0; i < 10; i++) {
            latest.next(r);
        }
        assertEquals(List.of(1009L, 1008L), latest.hottestKeys(2), "the newest inserted keys");

        assertEquals(List.of(), SeededYcsbWorkload.of(workload("requestdistribution=uniform")).hottestKeys(10));
    }

    @Test
    void valuesAreTheRecordsFieldsAndEqualSettingsReadAlike() {
        assertEquals(1000, SeededYcsbWorkload.of(workload()).valueBytes(), "YCSB's default 10 fields of 100 bytes");
        assertEquals(128, SeededYcsbWorkload.of(workload("fieldcount=1", "fieldlength=128")).valueBytes());
        // the text is what the FarReach bench keys its shared runs by: settings, however written
        assertEquals(SeededYcsbWorkload.of(workload("readproportion=1", "updateproportion=0")).toString(),
                SeededYcsbWorkload.of(workload("readproportion=1.0", "updateproportion=0.0", "insertproportion=0")).toString());
        assertNotEquals(SeededYcsbWorkload.of(A).toString(),
                SeededYcsbWorkload.of(workload("readproportion=0.5", "updateproportion=0.5")).toString());
    }

    private static List<Long> top(Map<Long, Integer> counts, int n) {
        return counts.entrySet().stream().sorted(Map.Entry.<Long, Integer>comparingByValue(Comparator.reverseOrder()))
                .limit(n).map(Map.Entry::getKey).sorted().toList();
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "scanproportion=0.95|range scans",
        "requestdistribution=hotspot|not supported by the seeded adapter",
        "readproportion=1.5|must be a proportion",
        "recordcount=0|recordcount must be a positive integer",
        "readproportion=0|every operation proportion is 0",
        "fieldlengthdistribution=zipfian|not supported by the seeded adapter",
        "fieldcount=0|fieldcount must be a positive integer"})
    void unsupportedOrBadSettingsAreRefusedWithAReason(String setting, String reason) {
        Properties p = workload("updateproportion=0", setting);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> SeededYcsbWorkload.of(p));
        assertTrue(e.getMessage().contains(reason), e.getMessage());
    }
}
