package dev.innet.distcache;

import dev.innet.distcache.server.DistCacheServer;

/**
 * The spec's refuted variants (specs/distcache/DistCache.tla, docs/distcache.md) as implementation bugs,
 * here in test code only: campaigns must catch each.
 */
final class SeededBugs {
    private SeededBugs() {}

    /**
     * A copy of p4/distcache.p4 under target/ with exactly one occurrence of {@code from} replaced by
     * {@code to} (a switch-side variant of the spec: BugNoVersionGuard, BugNoFillToken). Fails if the
     * program no longer contains {@code from} exactly once, rather than silently testing nothing.
     */
    static java.nio.file.Path program(String name, String from, String to) throws java.io.IOException {
        String source = java.nio.file.Files.readString(dev.innet.rack.RackRuns.root().resolve("p4/distcache.p4"));
        int at = source.indexOf(from);
        if (at < 0 || source.indexOf(from, at + 1) >= 0) {
            throw new IllegalStateException("seeded bug " + name + ": '" + from + "' is not in p4/distcache.p4 exactly once");
        }
        java.nio.file.Path dir = java.nio.file.Path.of("target", "seeded-bugs", name);
        java.nio.file.Files.createDirectories(dir);
        java.nio.file.Path out = dir.resolve("distcache.p4");
        java.nio.file.Files.writeString(out, source.substring(0, at) + to + source.substring(at + from.length()));
        return out;
    }

    /** BugSinglePhase: no phase 1; the server applies, acknowledges and sends the updates at once. */
    static DistCacheProtocol singlePhase() {
        return new DistCacheProtocol().withServers((servers, opener, resend) -> new DistCacheServer(servers, opener, resend) {
            @Override
            protected boolean invalidatesBeforeApplying() {
                return false;
            }
        });
    }

    /**
     * BugRevalidateEarly: the copies get the new record (and turn valid) while phase 1 runs, before the
     * server applied and acknowledged the write: the server sends the updates with the invalidations.
     */
    static DistCacheProtocol revalidateEarly() {
        return new DistCacheProtocol().withServers((servers, opener, resend) -> new DistCacheServer(servers, opener, resend) {
            @Override
            protected boolean updatesWithInvalidations() {
                return true;
            }
        });
    }
}
