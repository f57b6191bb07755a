package dev.innet.live;

import org.junit.jupiter.api.Assumptions;

/** What every live rack test needs first: a machine that lets it make network namespaces. */
final class NetworkNamespaces {
    private NetworkNamespaces() {
    }

    /**
     * Skips the calling test class (a skip, not a pass, with the reason printed) where {@code ip netns add}
     * is refused: live racks cannot run there.
     */
    static void assumeAllowed(String probePrefix) {
        String probe = probePrefix + "-probe-" + ProcessHandle.current().pid();
        Commands.Result add = Commands.tryRun("ip", "netns", "add", probe);
        Commands.tryRun("ip", "netns", "del", probe);
        Assumptions.assumeTrue(add.ok(), "SKIPPED: this machine does not allow network namespaces (ip netns add: "
                + add.output().strip() + "); live racks cannot run here");
    }
}
