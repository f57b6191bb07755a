package dev.innet.nocache;

import dev.innet.protocol.ForwardingSwitchOs;
import dev.innet.switchapi.SwitchHandle;
import java.util.List;

/**
 * The no-cache rack's switch OS: it installs forwarding on every fresh or restarted switch, nothing
 * else: the program has no cache to manage.
 */
public final class NoCacheSwitchOs extends ForwardingSwitchOs {
    public NoCacheSwitchOs(List<Integer> hosts, SwitchHandle handle, long pollNanos) {
        super(hosts, handle, pollNanos);
    }
}
