package dev.innet.live;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;

/**
 * Removes what a rack's plan records, and nothing else: processes by pid (checked against their start
 * time), then veth links and namespaces by name. Safe to repeat and safe after {@code rack up} died
 * midway (a recorded thing that does not exist is skipped). The plan is then kept as {@code plan.down.txt}
 * next to the logs and histories.
 */
public final class RackDown {
    private RackDown() {}

    /** Where the kernel keeps a named namespace (iproute2's convention). */
    static Path namespaceFile(String name) {
        return Path.of("/run/netns", name);
    }

    /**
     * Tears down the rack whose plan is {@code planFile}; returns the things it could not remove (empty
     * when everything is gone). A missing plan means there is nothing to do.
     */
    public static List<String> down(Path planFile, PrintStream out) throws InterruptedException {
        if (!Files.exists(planFile)) {
            out.println("rack down: nothing recorded in " + planFile + " (not up)");
            return List.of();
        }
        RackPlan plan = RackPlan.read(planFile);
        List<String> left = new ArrayList<>();
        List<RackPlan.Process> processes = new ArrayList<>(plan.processes());
        java.util.Collections.reverse(processes); // clients first, the switch last
        for (RackPlan.Process p : processes) {
            if (Pids.stop(p.pid(), p.startTicks(), 3_000)) {
                out.println("rack down: stopped " + p.name() + " (pid " + p.pid() + ")");
            }
            if (Pids.alive(p.pid(), p.startTicks())) {
                left.add("process " + p.name() + " (pid " + p.pid() + ")");
            }
        }
        for (RackPlan.Link link : plan.links()) {
            if (Files.exists(namespaceFile(link.namespace()))) {
                // gone already when its peer's namespace went: only an error if it is still there after
                Commands.tryRun("ip", "-n", link.namespace(), "link", "del", link.name());
                if (Commands.tryRun("ip", "-n", link.namespace(), "link", "show", link.name()).ok()) {
                    left.add("link " + link.name() + " in " + link.namespace());
                }
            }
        }
        List<String> namespaces = new ArrayList<>(plan.namespaces());
        java.util.Collections.reverse(namespaces);
        for (String ns : namespaces) {
            if (Files.exists(namespaceFile(ns))) {
                Commands.Result r = Commands.tryRun("ip", "netns", "del", ns);
                if (Files.exists(namespaceFile(ns))) {
                    left.add("namespace " + ns + " (" + r.output().strip() + ")");
                } else {
                    out.println("rack down: deleted namespace " + ns);
                }
            }
        }
        if (left.isEmpty()) {
            try {
                Files.move(planFile, planFile.resolveSibling("plan.down.txt"), StandardCopyOption.REPLACE_EXISTING);
            } catch (IOException e) {
                throw new UncheckedIOException("retiring " + planFile, e);
            }
        }
        return left;
    }
}
