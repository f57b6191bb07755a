package dev.innet.p4sim.ports;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;

/**
 * Sleeps until one of several ring ports has a filled receive block (one {@code poll} system call), for
 * the one thread that drains them all. Used only when a pass over the rings found nothing.
 */
public final class RingPoller implements AutoCloseable {
    private final Arena arena = Arena.ofConfined();
    private final MemorySegment fds;
    private final MemorySegment state = arena.allocate(Libc.STATE);
    private final int n;

    public RingPoller(List<RingPort> ports) {
        n = ports.size();
        fds = arena.allocate(8L * Math.max(1, n));
        for (int i = 0; i < n; i++) {
            fds.set(ValueLayout.JAVA_INT, 8L * i, ports.get(i).receiveFd());
            fds.set(ValueLayout.JAVA_SHORT, 8L * i + 4, Libc.POLLIN);
        }
    }

    /** Waits up to {@code timeoutMillis} for input; returns early on input (or a signal). */
    public void await(int timeoutMillis) throws IOException {
        try {
            int rc = (int) Libc.POLL.invokeExact(state, fds, (long) n, timeoutMillis);
            if (rc < 0 && Libc.errno(state) != Libc.EINTR) {
                throw new IOException("poll failed, errno " + Libc.errno(state));
            }
        } catch (IOException e) {
            throw e;
        } catch (Throwable t) {
            throw new IOException("poll", t);
        }
    }

    @Override
    public void close() {
        arena.close();
    }
}
