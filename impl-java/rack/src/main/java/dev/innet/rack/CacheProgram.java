package dev.innet.rack;

import java.nio.file.Path;

/** The switch programs of the key-value family; all share servers, clients and the wire format. */
public enum CacheProgram {
    /** Plain forwarding: the baseline without a cache. */
    NOCACHE("p4/nocache.p4"),
    /** Write-through cache: writes invalidate, the server's reply revalidates (docs/p4-programs.md §4). */
    NETCACHE("p4/netcache.p4"),
    /** FarReach's write-back cache (docs/p4-programs.md §5). */
    FARREACH("p4/farreach.p4");

    private final String source;

    CacheProgram(String source) {
        this.source = source;
    }

    public Path sourceUnder(Path repositoryRoot) {
        return repositoryRoot.resolve(source);
    }

    public boolean caches() {
        return this != NOCACHE;
    }
}
