package dev.innet.kv.client;

import java.util.List;

/**
 * @param serverHosts  the storage servers (consistent-hash ring shared with servers and controller)
 * @param timeoutNanos how long one attempt waits for its reply
 * @param maxAttempts  attempts per read before giving up (reads are always safe to retry)
 * @param retryWrites  whether writes are retried on timeout. Off by default: the switch numbers every
 *                     write it sees, so a retry whose original was applied (only the reply was lost) is
 *                     a second write that can overwrite a newer one. Without retries a timed-out write
 *                     ends "unknown", which is what it is (docs/farreach.md, client semantics).
 * @param sourcePort   UDP source port of requests
 */
public record ClientConfig(List<Integer> serverHosts, long timeoutNanos, int maxAttempts, boolean retryWrites,
        int sourcePort) {
    public ClientConfig {
        serverHosts = List.copyOf(serverHosts);
        if (serverHosts.isEmpty() || timeoutNanos <= 0 || maxAttempts < 1 || sourcePort < 1024 || sourcePort > 0xffff) {
            throw new IllegalArgumentException("invalid client configuration");
        }
    }

    public static ClientConfig defaults(List<Integer> serverHosts) {
        return new ClientConfig(serverHosts, 5_000_000L, 5, false, 40000);
    }
}
