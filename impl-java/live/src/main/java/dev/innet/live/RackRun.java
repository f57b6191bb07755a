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
        List<Future<String>> replies = new ArrayList<>();
        try (ExecutorService waiters = Executors.newVirtualThreadPerTaskExecutor()) {
            int clients = layout.clients().size();
            for (int i = 0; i < clients && phases != Phases.FINAL_READS; i++) {
                int h = layout.clients().get(i);
                int share = operations / clients + (i < operations % clients ? 1 : 0);
                Path part = dir.resolve("h" + h + ".jsonl");
                parts.add(part);
                long gapMicros = rate > 0 ? clients * 1_000_000L / rate : 0;
                String request = "run " + share + " " + keys + " " + READ_PERCENT + " " + DELETE_PERCENT + " " + part
                        + (durationMillis > 0 || rate > 0 ? " " + durationMillis + " " + gapMicros : "");
                replies.add(waiters.submit(() -> CommandSocket.ask(layout.socketOf(h), request, timeoutMillis)));
            }
            List<String> reports = new ArrayList<>();
            for (int i = 0; i < replies.size(); i++) {
                String reply;
                try {
                    reply = replies.get(i).get();
                } catch (ExecutionException e) {
                    // killed mid-run (a nemesis)? then its journal holds its share of the history
                    int h = layout.clients().get(i);
                    Path journal = ClientJournal.journalOf(parts.get(i));
                    if (!Files.exists(journal)) {
                        throw new IllegalStateException("client h" + h + ": " + e.getCause().getMessage(), e);
                    }
                    ClientJournal.Recovered r = ClientJournal.recover(journal);
                    Files.writeString(parts.get(i), r.lines().isEmpty() ? "" : String.join("\n", r.lines()) + "\n",
                            StandardCharsets.UTF_8);
                    reports.add("h" + h + " died during the run (" + e.getCause().getMessage() + "): its journal gave "
                            + r.ended() + " ended operations and " + r.unknown() + " in flight, recorded as unknown");
                    continue;
                }
                if (!reply.startsWith("done ")) {
                    throw new IllegalStateException("client h" + layout.clients().get(i) + ": " + reply);
                }
                reports.add("h" + layout.clients().get(i) + " " + reply);
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
