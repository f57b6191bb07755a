package dev.innet.live;

import dev.innet.p4sim.ports.FrameTraceWriter;
import dev.innet.protocol.RackPorts;
import dev.innet.sim.TraceEvent;
import dev.innet.sim.simulated.Simulation;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Merges the per-host trace-event files of a live rack (HostMain --trace-events, and the switch's own,
 * p4sim --trace-frames) into one NDJSON run in time order, the shape the simulator writes (Simulation.writeTraceEvents) and trace validation reads.
 * Every host of a live rack, and p4sim, stamps its events with the machine's monotonic clock (System.nanoTime),
 * so the merged order is the order in which the events happened on this machine; ties keep host order.
 * A skewed host (the skew nemesis) stamps skewed times: such a merge is not in real order.
 */
public final class TraceEventsMerge {
    private static final Pattern TIME = Pattern.compile("^\\{\"time\":(-?\\d+),");

    private TraceEventsMerge() {
    }

    /** One event line and where it came from, for messages. */
    record Line(long time, String text, Path file, int number) {
    }

    /**
     * Reads every file, checks each line starts with a time, and returns the lines sorted by time.
     * A line that does not is refused naming its file and line: a torn last line of a killed host is an
     * error too (the files are written one flushed line at a time, so it means something else wrote there).
     * For files that processes may still be writing, use {@link #mergeLive}.
     */
    public static List<String> merge(List<Path> files) {
        return mergeStampedBy(files, Long.MAX_VALUE);
    }

    /**
     * How long {@link #mergeLive} waits after its cut before it reads: a host stamps a line, then writes and flushes
     * it at once, so a line stamped before the cut is in its file this long after it unless its writer stalled
     * between stamp and write for longer (a loaded machine's scheduler or a GC pause, far below a second).
     */
    static final long LIVE_CUT_GRACE_MILLIS = 1_000;

    /**
     * The merge of a rack whose processes are still running, cut consistently. The files are read one after
     * another while the hosts go on writing, so a plain merge can hold an effect without its cause: the
     * controller's {@code admitFloor}, written after the server file was read, without the server's
     * {@code serverProbe} that it answers. This takes a cut time first, waits {@link #LIVE_CUT_GRACE_MILLIS},
     * reads, and keeps only the events placed at or before the cut: each kept event's causes were stamped earlier
     * still, so they were written before the files were read. The result is a prefix of the run in time order,
     * which trace validation checks like any other run.
     */
    public static List<String> mergeLive(List<Path> files) throws InterruptedException {
        long cut = System.nanoTime();
        Thread.sleep(LIVE_CUT_GRACE_MILLIS);
        return mergeStampedBy(files, cut);
    }

    /**
     * The merge of the events placed at or before {@code cut} (System.nanoTime). With a cut, an unterminated last
     * line is one its host is writing as the file is read: it is left out, not refused (the cut leaves it out
     * anyway, being stamped after it). Controller events are cut where {@link #placeControllerSteps} placed
     * them: a step whose write the switch stamped before the cut is kept with the frames that saw it.
     */
    static List<String> mergeStampedBy(List<Path> files, long cut) {
        boolean live = cut != Long.MAX_VALUE;
        List<Line> lines = new ArrayList<>();
        for (Path file : files) {
            String content;
            try {
                content = Files.readString(file);
            } catch (IOException e) {
                throw new UncheckedIOException("reading trace events " + file, e);
            }
            List<String> texts = content.lines().toList();
            int complete = live && !content.isEmpty() && !content.endsWith("\n") ? texts.size() - 1 : texts.size();
            for (int i = 0; i < complete; i++) {
                String text = texts.get(i);
                if (text.isBlank()) {
                    continue;
                }
                Matcher m = TIME.matcher(text);
                if (!m.find() || !text.endsWith("}")) {
                    throw new IllegalArgumentException(file + ":" + (i + 1) + ": not a trace event line (expected "
                            + "{\"time\":N,...}): " + abbreviate(text));
                }
                lines.add(new Line(Long.parseLong(m.group(1)), text, file, i + 1));
            }
        }
        lines.sort(Comparator.comparingLong(Line::time)); // stable: ties keep file, then line order
        List<Line> placed = placeControllerSteps(lines);
        placed.sort(Comparator.comparingLong(Line::time));
        return placed.stream().filter(l -> l.time() <= cut).map(Line::text).toList();
    }

    private static final String SWITCH_CONTROL = "\"host\":" + Simulation.ENVIRONMENT_HOST + ",\"incarnation\":0,\"event\":\""
            + FrameTraceWriter.SWITCH_CONTROL_EVENT + "\"";
    private static final String CONTROLLER = "\"host\":" + RackPorts.CONTROLLER_HOST + ",";

    /**
     * For a controller line without {@link TraceEvent#STEP_START} (files written before controllers recorded it): how
     * long before the event its step's last write may have been stamped. A guess, which a loaded machine can beat
     * (a control round trip of more than 5 ms); lines that say when their handler began need none.
     */
    static final long STEP_WRITE_WINDOW_NANOS = 5_000_000;

    private static final Pattern STEP_START = Pattern.compile(",\"" + TraceEvent.STEP_START + "\":(-?\\d+)}$");

    /**
     * Moves each controller event back to the switch's stamp of the controller's last control write before it,
     * and drops the switch's {@code switchControl} lines. The controller stamps its event once its control calls
     * have returned, and the switch may process frames between the write that made the step visible and that
     * stamp: placed at its own stamp, the step would come after frames that already saw its effect. Its last
     * write since its previous event is the one that made it visible (a step's writes come before its event on
     * the controller's one event loop, within the handler that emits it). A controller line says when its handler
     * began ({@link TraceEvent#STEP_START}, removed here): a write before that is none of the step's (the
     * controller's untraced work: counter resets, polls' repairs), and an event with no write in its handler (a
     * hot report received, say) keeps its stamp. A line without it takes writes in the
     * {@link #STEP_WRITE_WINDOW_NANOS} before it. Without {@code switchControl} lines (bmv2, P4Runtime control,
     * files from before them) nothing moves.
     */
    static List<Line> placeControllerSteps(List<Line> sorted) {
        List<Line> out = new ArrayList<>(sorted.size());
        long previousControllerStep = Long.MIN_VALUE;
        long lastWrite = Long.MIN_VALUE;
        for (Line l : sorted) {
            if (l.text().startsWith(SWITCH_CONTROL, l.text().indexOf(',') + 1)) {
                lastWrite = l.time();
                continue;
            }
            if (l.text().startsWith(CONTROLLER, l.text().indexOf(',') + 1)) {
                Matcher stepStart = STEP_START.matcher(l.text());
                boolean said = stepStart.find();
                String text = said ? l.text().substring(0, stepStart.start()) + "}" : l.text();
                long earliestWrite = said ? Long.parseLong(stepStart.group(1)) : l.time() - STEP_WRITE_WINDOW_NANOS;
                boolean ownWrite = lastWrite > previousControllerStep && lastWrite >= earliestWrite;
                long at = ownWrite ? lastWrite : l.time();
                previousControllerStep = l.time();
                if (at != l.time()) {
                    text = text.replaceFirst("^\\{\"time\":-?\\d+,", "{\"time\":" + at + ",");
                }
                if (at != l.time() || said) {
                    l = new Line(at, text, l.file(), l.number());
                }
            }
            out.add(l);
        }
        return out;
    }

    /**
     * The rack's files: the switch's (p4sim --trace-frames, host 0; one per switch of a network of several, by
     * switch name) first, then the hosts' in host order (hosts that wrote nothing have none).
     */
    public static List<Path> filesOf(RackLayout layout) {
        List<Path> files = new ArrayList<>();
        List<Integer> hosts = new ArrayList<>(List.of(Simulation.ENVIRONMENT_HOST));
        hosts.addAll(layout.allHosts());
        for (int h : hosts) {
            if (Files.exists(layout.traceEventsOf(h))) {
                files.add(layout.traceEventsOf(h));
            }
            if (h == Simulation.ENVIRONMENT_HOST) {
                files.addAll(switchFilesOf(layout)); // several switches: one file each, right after a one-switch rack's
            }
        }
        return files;
    }

    /** The files of a network of several switches ({@link RackLayout#switchTraceEventsOf}), by name. */
    static List<Path> switchFilesOf(RackLayout layout) {
        Path dir = layout.traceEventsOf(Simulation.ENVIRONMENT_HOST).getParent();
        String prefix = "h" + Simulation.ENVIRONMENT_HOST + "-";
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (java.util.stream.Stream<Path> list = Files.list(dir)) {
            return list.filter(p -> p.getFileName().toString().startsWith(prefix) && p.getFileName().toString().endsWith(".ndjson"))
                    .sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException("listing " + dir, e);
        }
    }

    private static String abbreviate(String text) {
        return text.length() <= 80 ? text : text.substring(0, 80) + "...";
    }
}
