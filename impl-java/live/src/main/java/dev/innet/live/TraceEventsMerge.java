package dev.innet.live;

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
    private record Line(long time, String text, Path file, int number) {
    }

    /**
     * Reads every file, checks each line starts with a time, and returns the lines sorted by time.
     * A line that does not is refused naming its file and line: a torn last line of a killed host is an
     * error too (the files are written one flushed line at a time, so it means something else wrote there).
     */
    public static List<String> merge(List<Path> files) {
        List<Line> lines = new ArrayList<>();
        for (Path file : files) {
            List<String> texts;
            try {
                texts = Files.readAllLines(file);
            } catch (IOException e) {
                throw new UncheckedIOException("reading trace events " + file, e);
            }
            for (int i = 0; i < texts.size(); i++) {
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
        return lines.stream().map(Line::text).toList();
    }

    /**
     * The rack's files: the switch's (p4sim --trace-frames, host 0) first, then the hosts' in host order
     * (hosts that wrote nothing have none).
     */
    public static List<Path> filesOf(RackLayout layout) {
        List<Path> files = new ArrayList<>();
        List<Integer> hosts = new ArrayList<>(List.of(Simulation.ENVIRONMENT_HOST));
        hosts.addAll(layout.allHosts());
        for (int h : hosts) {
            if (Files.exists(layout.traceEventsOf(h))) {
                files.add(layout.traceEventsOf(h));
            }
        }
        return files;
    }

    private static String abbreviate(String text) {
        return text.length() <= 80 ? text : text.substring(0, 80) + "...";
    }
}
