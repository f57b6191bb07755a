package dev.innet.live;

import java.io.PrintStream;
import java.nio.file.Files;
import java.util.List;

/**
 * What {@code rack up} does when a namespace it is about to make exists already. A run that was killed
 * (a session cut off, a machine's CI job stopped) never reaches {@code rack down}, and its namespaces
 * outlive it with nothing inside: those are reclaimed, with a line saying so. A namespace that processes
 * still run in belongs to a rack that is up (perhaps started from another checkout, whose plan this one
 * cannot see): it is refused, and left alone, because deleting it would cut that rack's cables.
 */
final class LeftoverNamespaces {
    private LeftoverNamespaces() {}

    /** Makes {@code ns} free to add: nothing to do when it does not exist; throws when it is in use. */
    static void reclaimIfLeftover(String ns, String rackName, PrintStream out) {
        if (!Files.exists(RackDown.namespaceFile(ns))) {
            return;
        }
        List<String> pids = processesIn(ns);
        if (!pids.isEmpty()) {
            throw new IllegalStateException("namespace " + ns + " exists and process(es) " + String.join(" ", pids)
                    + " run in it: a rack named '" + rackName + "' is up, perhaps from another checkout (its "
                    + "./innet rack down --name " + rackName + " removes it), or pick another --name");
        }
        Commands.Result del = Commands.tryRun("ip", "netns", "del", ns);
        if (Files.exists(RackDown.namespaceFile(ns))) {
            throw new IllegalStateException("namespace " + ns + " is left over from a rack that was never taken down, "
                    + "and deleting it failed: " + del.output().strip());
        }
        out.println("rack up: removed namespace " + ns + ", left over from a rack of this name that was never taken "
                + "down (no process ran in it)");
    }

    /** The pids {@code ip netns pids} names; a failure to ask counts as "in use", so nothing is deleted blind. */
    private static List<String> processesIn(String ns) {
        Commands.Result r = Commands.tryRun("ip", "netns", "pids", ns);
        if (!r.ok()) {
            return List.of("(unknown: ip netns pids " + ns + ": " + r.output().strip() + ")");
        }
        return r.output().lines().map(String::strip).filter(l -> !l.isEmpty()).toList();
    }
}
