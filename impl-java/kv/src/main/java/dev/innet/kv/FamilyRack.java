package dev.innet.kv;

import dev.innet.kv.client.ClientConfig;
import dev.innet.kv.server.ServerConfig;
import dev.innet.kv.store.RecordStoreOpener;
import dev.innet.protocol.RackSpec;
import dev.innet.wire.InnetMessage;

/**
 * How every member of the key-value family configures its servers and clients from the harness's
 * {@link RackSpec}, so the protocols agree (servers and clients must share the partitioning).
 *
 * @param servers the storage servers' configuration. Servers may report a key hot again once the
 *                switch's counters were reset, so the hot-report period is the counter-reset period:
 *                a key evicted in one period can be hot again in the next.
 * @param stores  RocksDB under each server's durable directory, or memory
 * @param clients the client library's configuration: five attempts per read, writes not retried
 *                (a retry would be a second, numbered write; docs/farreach.md, client semantics)
 */
public record FamilyRack(ServerConfig servers, RecordStoreOpener stores, ClientConfig clients) {
    public static FamilyRack of(RackSpec rack) {
        return new FamilyRack(
                new ServerConfig(rack.servers(), rack.controllerHost(), InnetMessage.MAX_VALUE_BYTES, 64,
                        rack.counterResetNanos()),
                rack.durableServers() ? RecordStoreOpener.rocksdb() : RecordStoreOpener.memory(),
                new ClientConfig(rack.servers(), rack.clientTimeoutNanos(), 5, false, 40000));
    }
}
