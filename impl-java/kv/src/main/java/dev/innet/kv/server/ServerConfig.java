package dev.innet.kv.server;

import dev.innet.wire.InnetMessage;
import java.util.List;

/**
 * A storage server's configuration, shared with clients and the controller where it matters.
 *
 * @param serverHosts         host numbers of all storage servers (the consistent-hash ring)
 * @param controllerHost      host number the controller listens on (hot-key reports go there)
 * @param maxValueBytes       largest value the server accepts (wire maximum is 1376)
 * @param hotReportsPerPeriod most distinct keys reported hot per period (bounded controller load)
 * @param hotPeriodNanos      how often the hot-report period restarts
 */
public record ServerConfig(List<Integer> serverHosts, int controllerHost, int maxValueBytes, int hotReportsPerPeriod,
        long hotPeriodNanos) {
    public ServerConfig {
        serverHosts = List.copyOf(serverHosts);
        if (serverHosts.isEmpty()) {
            throw new IllegalArgumentException("at least one server");
        }
        if (maxValueBytes < 1 || maxValueBytes > InnetMessage.MAX_VALUE_BYTES) {
            throw new IllegalArgumentException("maxValueBytes must be in 1.." + InnetMessage.MAX_VALUE_BYTES);
        }
        if (hotReportsPerPeriod < 1 || hotPeriodNanos < 1) {
            throw new IllegalArgumentException("hot-report limits must be positive");
        }
    }

    public static ServerConfig defaults(List<Integer> serverHosts, int controllerHost) {
        return new ServerConfig(serverHosts, controllerHost, InnetMessage.MAX_VALUE_BYTES, 64, 1_000_000_000L);
    }
}
