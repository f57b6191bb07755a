package dev.innet.distcache;

import dev.innet.distcache.server.DistCacheServer;

/**
 * The spec's refuted variants (specs/distcache/DistCache.tla, docs/distcache.md) as implementation bugs,
 * here in test code only: campaigns must catch each.
 */
final class SeededBugs {
    private SeededBugs() {}

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
