package dev.innet.sim.simulated;

import dev.innet.sim.history.HistoryRecorder;
import dev.innet.sim.history.OpKind;
import dev.innet.sim.history.OpResult;
import dev.innet.sim.testnodes.KvClientNode;
import dev.innet.sim.testnodes.KvServerNode;
import dev.innet.sim.testnodes.StaticForwardingSwitch;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.BooleanSupplier;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The shape of a protocol test (STYLE.md): a chaos phase checked for safety, then heal and check
 * liveness, with a history written for the linearizability checker. Here with a test-only key-value
 * server and retrying clients standing in for the real protocols.
 */
class TwoPhaseKvTest {
    private static final long MS = 1_000_000;
    private static final long DEFAULT_SEED = 7L;
    private static final int SERVER = 10;
    private static final int[] CLIENTS = {1, 2, 3};
    private static final Pattern LINE = Pattern.compile(
            "\\{\"client\":\\d+,\"op\":\"(get|put|delete)\",\"key\":\"[0-9a-f]{32}\"(,\"value\":\"[0-9a-f]*\")?"
                    + ",\"call\":\\d+,\"return\":(\\d+|null),\"result\":\"(ok|not_found|fail|unknown)\",\"id\":\\d+}");

    @Test
    void chaosKeepsReadsHonestAndEveryClientFinishesAfterHeal() throws IOException {
        Path out = Files.createDirectories(Path.of("target", "sim-histories"));
        for (long seed : Seeds.seeds(DEFAULT_SEED)) { // -Dinnet.sim.seed=N replays, -Dinnet.sim.seeds=K sweeps
            String jsonl = runKv(seed, false, System.out);
            List<String> lines = jsonl.lines().toList();
            assertTrue(lines.size() >= 75, "seed=" + seed + ": three clients of 25 operations each, plus any restarted"
                    + " client's: " + lines.size());
            for (String line : lines) {
                assertTrue(LINE.matcher(line).matches(), "seed=" + seed + " bad history line: " + line);
            }
            Files.writeString(out.resolve("kv-seed-" + seed + ".jsonl"), jsonl);
        }
    }

    /**
     * One run: a key-value server (host 10) and three clients under a random fault plan for 30 ms (the
     * server and client 1 may crash), then healed. Returns the history as JSON Lines. Fails the run,
     * with the seed, if a read returns a value nobody wrote or a client has not finished 2 s after heal.
     */
    static String runKv(long seed, boolean serverForgetsDuplicates, PrintStream header) {
        Simulation sim = Simulation.builder(seed).out(header).build();
        HistoryRecorder history = new HistoryRecorder(sim.clock());
        SimSwitch tor = sim.addSwitch("tor", () -> StaticForwardingSwitch.hostOnSamePort(1, 2, 3, SERVER));
        sim.addHost(SERVER, () -> new KvServerNode(serverForgetsDuplicates), tor, SERVER);
        TreeMap<Integer, KvClientNode> latest = new TreeMap<>();
        for (int c : CLIENTS) {
            sim.addHost(c, () -> {
                KvClientNode client = new KvClientNode(SERVER, 25, history);
                latest.put(c, client);
                return client;
            }, tor, c);
        }
        FaultPlan plan = FaultPlan.random(sim, FaultPlan.Options.moderate(30 * MS).withCrashableHosts(Set.of(SERVER, 1)));
        sim.apply(plan);

        // Phase 1: chaos. Safety only: every read returns something some put wrote.
        sim.runUntil(plan.chaosEnd());
        checkReadsComeFromWrites(sim, history);

        // Phase 2: healed. Liveness: every running client finishes its operations.
        BooleanSupplier allFinished = () -> {
            for (int c : CLIENTS) {
                if (!sim.isUp(c) || !latest.get(c).finished()) {
                    return false;
                }
            }
            return true;
        };
        boolean finished = sim.runUntil(allFinished, plan.chaosEnd() + 2_000 * MS);
        sim.check(finished, "clients still unfinished 2 s after heal");
        checkReadsComeFromWrites(sim, history);
        return history.toJsonLines();
    }

    /** A cheap safety check (lincheck does the real one): a successful get returns a value a put had written. */
    private static void checkReadsComeFromWrites(Simulation sim, HistoryRecorder history) {
        List<String> written = new ArrayList<>();
        for (HistoryRecorder.Operation op : history.operations()) {
            if (op.kind() == OpKind.PUT) {
                written.add(valueOf(op));
            }
        }
        for (HistoryRecorder.Operation op : history.operations()) {
            if (op.kind() == OpKind.GET && op.result() == OpResult.OK) {
                sim.check(written.contains(valueOf(op)), "get " + op.id() + " read a value nobody wrote: " + valueOf(op));
            }
        }
    }

    private static String valueOf(HistoryRecorder.Operation op) {
        return HexFormat.of().formatHex(op.value());
    }
}
