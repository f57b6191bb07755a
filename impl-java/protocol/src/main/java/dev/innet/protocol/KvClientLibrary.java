package dev.innet.protocol;

import java.util.function.Consumer;

/**
 * The operations a workload (or a YCSB thread) drives on a client host, whatever the protocol: one
 * operation outstanding at a time, completed through a callback from the host's event handlers. The
 * host hands every frame and timer to the library first; {@code true} means the library consumed it.
 */
public interface KvClientLibrary {
    void get(byte[] key, Consumer<KvResult> done);

    void put(byte[] key, byte[] value, Consumer<KvResult> done);

    void delete(byte[] key, Consumer<KvResult> done);

    /** Whether an operation is outstanding. */
    boolean busy();

    boolean onPacket(byte[] frame);

    boolean onTimer(long timerId);
}
