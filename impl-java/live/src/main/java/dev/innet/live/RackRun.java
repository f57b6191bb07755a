package dev.innet.live;

import dev.innet.sim.live.CommandSocket;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * One workload on a live rack that is up: every client host runs its share of the operations at the
 * same time (asked over its command socket), each writes its history, and the run's history is their
 * union, {@code history/run-N.jsonl} (docs/history-format.md: one monotonic clock for all clients, ids
 * unique across the rack). After the workload one client reads every key once (the final reads), and
 * those reads are part of the history too.
 */
public final class RackRun {
    /** Reads, deletes and writes of a run, in percent (the rest are writes). */
    public static final int READ_PERCENT = 50;
    public static final int DELETE_PERCENT = 15;

    private RackRun() {}

    /** The history file of the run and what each client said when it finished. */
    public record Result(Path history, List<String> clientReports) {}

    /**
     * Runs {@code operations} operations in all (split evenly over the clients) on {@code keys} keys.
     * Every client must be healthy first; a client that fails or answers with an error fails the run.
     */
    public static Result run(RackLayout layout, int operations, int keys, long timeoutMillis, PrintStream out)
            throws InterruptedException, java.io.IOException {
        return run(layout, operations, keys, 0, 0, Phases.BOTH, timeoutMillis, out);
    }

    /**
     * What a run does: the workload then the final reads (the default), or one of them, so that a campaign
     * can heal its faults between the two (the final reads must see the healed rack).
     */
    public enum Phases { BOTH, WORKLOAD, FINAL_READS }

    /**
     * As above, but with {@code durationMillis} positive every client stops issuing once that long has
     * passed (then {@code operations} is only a cap), and with {@code rate} positive the clients together
     * aim at that many operations per second: each pauses clients/rate seconds between its operations
     * (closed loop, so a slow operation lowers the rate; it never bunches operations up afterwards).
     */
    public static Result run(RackLayout layout, int operations, int keys, long durationMillis, int rate, Phases phases,
            long timeoutMillis, PrintStream out) throws InterruptedException, java.io.IOException {
        if (operations < layout.clients().size() || keys < 1) {
            throw new IllegalArgumentException("a run needs at least one operation per client (" + layout.clients().size()
                    + ") and one key, got " + operations + " operations and " + keys + " keys");
        }
        for (int h : layout.allHosts()) {
            String answer = Health.ask(layout, h);
            if (!Health.ready(answer)) {
                throw new IllegalStateException("h" + h + " is not healthy: " + answer);
            }
        }
        // a campaign starts its faults on this line: the health check above must see the rack unbroken
        out.println("rack run: started");
        out.flush();
        int runNumber = nextRunNumber(layout);
        Path dir = layout.historyDir().resolve("run-" + runNumber);
        List<Path> parts = new ArrayList<>();
        long deadline = System.nanoTime() + durationMillis * 1_000_000L;
        List<Future<ClientShare>> shares = new ArrayList<>();
        try (ExecutorService waiters = Executors.newVirtualThreadPerTaskExecutor()) {
            int clients = layout.clients().size();
            for (int i = 0; i < clients && phases != Phases.FINAL_READS; i++) {
                int h = layout.clients().get(i);
                int share = operations / clients + (i < operations % clients ? 1 : 0);
                long gapMicros = rate > 0 ? clients * 1_000_000L / rate : 0;
                shares.add(waiters.submit(() -> runShare(layout, h, dir, share, keys, durationMillis, deadline, gapMicros,
                        durationMillis > 0 || rate > 0, timeoutMillis)));
            }
            List<String> reports = new ArrayList<>();
            for (Future<ClientShare> f : shares) {
                ClientShare done;
                try {
                    done = f.get();
                } catch (ExecutionException e) {
                    throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
                }
                parts.addAll(done.parts());
                reports.addAll(done.reports());
            }
            // after every client has finished: one client reads every key, so the check sees the final state
            if (phases != Phases.WORKLOAD) {
                int reader = layout.clients().get(0);
                Path finalPart = dir.resolve("final-reads-h" + reader + ".jsonl");
                String reply = CommandSocket.ask(layout.socketOf(reader), "final-reads " + keys + " " + finalPart, timeoutMillis);
                if (!reply.startsWith("done ")) {
                    throw new IllegalStateException("final reads on client h" + reader + ": " + reply);
                }
                reports.add("h" + reader + " final reads " + reply);
                parts.add(finalPart);
            }
            Path history = layout.historyDir().resolve("run-" + runNumber + ".jsonl");
            merge(parts, history);
            for (String r : reports) {
                out.println("rack run: " + r);
            }
            return new Result(history, reports);
        }
    }

    /** What one client's share of a run left: its history parts (one per incarnation that ran) and report lines. */
    private record ClientShare(List<Path> parts, List<String> reports) {}

    /** How long a killed client of a timed run may take to be restarted (by the campaign's heal) and answer ready. */
    private static final long REJOIN_WAIT_MILLIS = 30_000;

    /**
     * Runs client {@code h}'s share. A client killed mid-run (a nemesis) leaves its share so far in its journal,
     * which becomes this part of the history. In a timed run it then rejoins: once restarted (the campaign's heal)
     * and ready, before the run's end, it runs the rest of the share in a new part, as a new incarnation with
     * new client and operation ids (the history format: a crashed client's id issues nothing more).
     */
    private static ClientShare runShare(RackLayout layout, int h, Path dir, int share, int keys, long durationMillis,
            long deadline, long gapMicros, boolean paced, long timeoutMillis) throws IOException, InterruptedException {
        List<Path> parts = new ArrayList<>();
        List<String> reports = new ArrayList<>();
        int left = share;
        for (int incarnationRun = 1; ; incarnationRun++) {
            Path part = dir.resolve(incarnationRun == 1 ? "h" + h + ".jsonl" : "h" + h + "-" + incarnationRun + ".jsonl");
            parts.add(part);
            long runMillis = durationMillis > 0 ? Math.max(1, (deadline - System.nanoTime()) / 1_000_000L) : 0;
            String request = "run " + left + " " + keys + " " + READ_PERCENT + " " + DELETE_PERCENT + " " + part
                    + (paced ? " " + runMillis + " " + gapMicros : "");
            try {
                String reply = CommandSocket.ask(layout.socketOf(h), request, timeoutMillis);
                if (!reply.startsWith("done ")) {
                    throw new IllegalStateException("client h" + h + ": " + reply);
                }
                reports.add("h" + h + " " + reply);
                return new ClientShare(parts, reports);
            } catch (IOException e) {
                // killed mid-run (a nemesis)? then its journal holds its share of the history
                Path journal = ClientJournal.journalOf(part);
                if (!Files.exists(journal)) {
                    throw new IllegalStateException("client h" + h + ": " + e.getMessage(), e);
                }
                ClientJournal.Recovered r = ClientJournal.recover(journal);
                Files.writeString(part, r.lines().isEmpty() ? "" : String.join("\n", r.lines()) + "\n", StandardCharsets.UTF_8);
                reports.add("h" + h + " died during the run (" + e.getMessage() + "): its journal gave " + r.ended()
                        + " ended operations and " + r.unknown() + " in flight, recorded as unknown");
                left -= r.ended() + r.unknown();
                if (durationMillis <= 0 || left <= 0 || !awaitRestarted(layout, h, deadline)) {
                    return new ClientShare(parts, reports);
                }
                reports.add("h" + h + " restarted: it runs the rest of its share");
            }
        }
    }

    /** Whether client {@code h} answers ready again before the run's deadline (and within the rejoin bound). */
    private static boolean awaitRestarted(RackLayout layout, int h, long deadline) throws InterruptedException {
        long until = Math.min(deadline, System.nanoTime() + REJOIN_WAIT_MILLIS * 1_000_000L);
        while (System.nanoTime() < until) {
            if (Health.ready(Health.ask(layout, h))) {
                return System.nanoTime() < deadline;
            }
            Thread.sleep(200);
        }
        return false;
    }

    private static int nextRunNumber(RackLayout layout) {
        int n = 1;
        while (Files.exists(layout.historyDir().resolve("run-" + n + ".jsonl"))) {
            n++;
        }
        return n;
    }

    private static void merge(List<Path> parts, Path history) {
        try {
            Files.createDirectories(history.getParent());
            Files.writeString(history, "", StandardCharsets.UTF_8, StandardOpenOption.CREATE_NEW);
            for (Path part : parts) {
                Files.writeString(history, Files.readString(part, StandardCharsets.UTF_8), StandardCharsets.UTF_8,
                        StandardOpenOption.APPEND);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("writing " + history, e);
        }
    }
}
