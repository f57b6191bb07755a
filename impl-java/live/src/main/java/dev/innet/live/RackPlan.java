package dev.innet.live;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What {@code rack up} made, written down before (namespaces, links) or as soon as (processes) it is
 * made, one line each, appended and flushed to {@code plan.txt}: so {@code rack down} removes exactly
 * that, by name and pid, even after {@code rack up} crashed midway. Lines:
 * <pre>
 * setting KEY VALUE                     protocol, servers, clients, seed, target
 * netns NAME                            a network namespace
 * link NAMESPACE INTERFACE              one end of a veth pair (deleting it deletes both ends)
 * process NAME PID START_TICKS LOG      a process; START_TICKS from /proc/PID/stat tells a reused pid apart
 * </pre>
 */
public final class RackPlan {
    public record Link(String namespace, String name) {}

    public record Process(String name, long pid, long startTicks, Path log) {}

    private final Path file;
    private final Map<String, String> settings = new LinkedHashMap<>();
    private final List<String> namespaces = new ArrayList<>();
    private final List<Link> links = new ArrayList<>();
    private final List<Process> processes = new ArrayList<>();

    private RackPlan(Path file) {
        this.file = file;
    }

    /** A new plan; the file must not exist (a rack that is up is never overwritten). */
    public static RackPlan create(Path file) {
        if (Files.exists(file)) {
            throw new IllegalStateException("a plan exists already: " + file);
        }
        try {
            Files.createDirectories(file.getParent());
            Files.writeString(file, "", StandardCharsets.UTF_8, StandardOpenOption.CREATE_NEW);
        } catch (IOException e) {
            throw new UncheckedIOException("creating " + file, e);
        }
        return new RackPlan(file);
    }

    /** Reads a plan; a line it does not understand is an error naming the line. */
    public static RackPlan read(Path file) {
        RackPlan plan = new RackPlan(file);
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("reading " + file, e);
        }
        int n = 0;
        for (String line : lines) {
            n++;
            if (line.isBlank()) {
                continue;
            }
            String[] f = line.split(" ");
            try {
                switch (f[0]) {
                    case "setting" -> plan.settings.put(f[1], String.join(" ", Arrays.copyOfRange(f, 2, f.length)));
                    case "netns" -> plan.namespaces.add(f[1]);
                    case "link" -> plan.links.add(new Link(f[1], f[2]));
                    case "process" -> plan.processes.add(new Process(f[1], Long.parseLong(f[2]), Long.parseLong(f[3]),
                            Path.of(f[4])));
                    default -> throw new IllegalArgumentException("unknown entry '" + f[0] + "'");
                }
            } catch (RuntimeException e) {
                // a line cut short by a crash mid-write is the only expected damage; name it and stop
                throw new IllegalArgumentException(file + ":" + n + ": cannot read '" + line + "': " + e.getMessage(), e);
            }
        }
        return plan;
    }

    public void setting(String key, String value) {
        settings.put(key, value);
        append("setting " + key + " " + value);
    }

    public void namespace(String name) {
        namespaces.add(name);
        append("netns " + name);
    }

    public void link(String namespace, String name) {
        links.add(new Link(namespace, name));
        append("link " + namespace + " " + name);
    }

    public void process(Process p) {
        processes.add(p);
        append("process " + p.name() + " " + p.pid() + " " + p.startTicks() + " " + p.log());
    }

    public String setting(String key) {
        String v = settings.get(key);
        if (v == null) {
            throw new IllegalStateException(file + " has no setting '" + key + "'");
        }
        return v;
    }

    /** A setting that older plans may lack, or {@code fallback}. */
    public String settingOr(String key, String fallback) {
        return settings.getOrDefault(key, fallback);
    }

    public Path file() {
        return file;
    }

    public List<String> namespaces() {
        return List.copyOf(namespaces);
    }

    public List<Link> links() {
        return List.copyOf(links);
    }

    public List<Process> processes() {
        return List.copyOf(processes);
    }

    /**
     * The latest record of each process name, in the order the names first appear: {@code rack restart}
     * appends a new record for a process it starts again, and the old one stays (its pid is dead).
     */
    public List<Process> currentProcesses() {
        Map<String, Process> latest = new LinkedHashMap<>();
        for (Process p : processes) {
            latest.put(p.name(), p);
        }
        return List.copyOf(latest.values());
    }

    private void append(String line) {
        try {
            // one write per line, synced: the record must exist before the thing it names does
            Files.writeString(file, line + "\n", StandardCharsets.UTF_8, StandardOpenOption.APPEND,
                    StandardOpenOption.SYNC);
        } catch (IOException e) {
            throw new UncheckedIOException("appending to " + file, e);
        }
    }
}
