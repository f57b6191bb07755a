package dev.innet.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.innet.rack.check.RunVerdict;
import dev.innet.rack.ycsb.InnetSimDB;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.Status;
import site.ycsb.workloads.CoreWorkload;

/**
 * YCSB's own CoreWorkload drives a simulated FarReach rack through the binding: the load phase inserts
 * every record, the run phase executes the workload's mix. Every operation must succeed (reads find
 * their records) and the resulting history must be linearizable.
 */
class InnetSimDBTest {

    /** YCSB's standard core workload mixes (proportions as in YCSB's workloads/ files). */
    private static Properties workload(String name) {
        Properties p = new Properties();
        p.setProperty("recordcount", "300");
        p.setProperty("operationcount", "1500");
        p.setProperty("fieldcount", "1");
        p.setProperty("fieldlength", "100");
        p.setProperty("requestdistribution", "zipfian");
        p.setProperty("readallfields", "true");
        switch (name) {
            case "a" -> { p.setProperty("readproportion", "0.5"); p.setProperty("updateproportion", "0.5"); }
            case "b" -> { p.setProperty("readproportion", "0.95"); p.setProperty("updateproportion", "0.05"); }
            case "c" -> p.setProperty("readproportion", "1");
            case "d" -> {
                p.setProperty("readproportion", "0.95");
                p.setProperty("insertproportion", "0.05");
                p.setProperty("requestdistribution", "latest");
            }
            case "f" -> { p.setProperty("readproportion", "0.5"); p.setProperty("readmodifywriteproportion", "0.5"); }
            default -> throw new IllegalArgumentException(name);
        }
        if (!name.equals("d")) {
            p.setProperty("insertproportion", "0");
        }
        p.setProperty("innet.root", System.getProperty("innet.root"));
        p.setProperty("innet.servers", "2");
        p.setProperty("innet.clients", "1");
        p.setProperty("innet.cache", "32");
        p.setProperty("innet.hotthreshold", "4");
        return p;
    }

    /** Counts every status the workload's operations got. */
    private static final class CountingDB extends DB {
        final DB inner;
        final Map<String, Integer> statuses = new HashMap<>();

        CountingDB(DB inner) {
            this.inner = inner;
        }

        private Status count(Status s) {
            statuses.merge(s.getName(), 1, Integer::sum);
            return s;
        }

        @Override
        public Status read(String t, String k, java.util.Set<String> f, Map<String, ByteIterator> r) {
            Status s = inner.read(t, k, f, r);
            if (s.isOk() && r.isEmpty()) {
                return count(new Status("EMPTY", "read returned no fields"));
            }
            return count(s);
        }

        @Override
        public Status scan(String t, String k, int n, java.util.Set<String> f,
                java.util.Vector<HashMap<String, ByteIterator>> r) {
            return count(inner.scan(t, k, n, f, r));
        }

        @Override
        public Status update(String t, String k, Map<String, ByteIterator> v) {
            return count(inner.update(t, k, v));
        }

        @Override
        public Status insert(String t, String k, Map<String, ByteIterator> v) {
            return count(inner.insert(t, k, v));
        }

        @Override
        public Status delete(String t, String k) {
            return count(inner.delete(t, k));
        }
    }

    @ParameterizedTest(name = "workload {0}")
    @ValueSource(strings = {"a", "b", "c", "d", "f"})
    void ycsbWorkloadRunsAgainstAFarReachRack(String name) throws Exception {
        Properties props = workload(name);
        InnetSimDB.reset();
        InnetSimDB binding = new InnetSimDB();
        binding.setProperties(props);
        binding.init();
        CountingDB db = new CountingDB(binding);
        db.setProperties(props);
        site.ycsb.measurements.Measurements.setProperties(props); // YCSB's workload records latencies there
        CoreWorkload w = new CoreWorkload();
        w.init(props);
        Object state = w.initThread(props, 0, 1);
        int records = Integer.parseInt(props.getProperty("recordcount"));
        for (int i = 0; i < records; i++) {
            assertTrue(w.doInsert(db, state), "load phase insert " + i);
        }
        int ops = Integer.parseInt(props.getProperty("operationcount"));
        for (int i = 0; i < ops; i++) {
            w.doTransaction(db, state);
        }
        assertEquals(Map.of("OK", db.statuses.get("OK")), db.statuses, "every operation must succeed");
        assertTrue(db.statuses.get("OK") >= records + ops, db.statuses.toString());
        assertTrue(InnetSimDB.rack().controllerCounters().get("admissions") > 0, "the hot records were never cached");
        RunVerdict v = RunVerdict.of(Path.of(System.getProperty("innet.root")), InnetSimDB.rack(),
                Path.of("target", "histories"), "ycsb-" + name);
        assertTrue(v.safe(), v.describe());
    }
}
