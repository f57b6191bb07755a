package dev.innet.pegasus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.innet.kv.store.RecordStoreOpener;
import dev.innet.pegasus.server.ClientTable;
import dev.innet.pegasus.server.PegasusServer;
import dev.innet.pegasus.wire.PegasusExt;
import dev.innet.pegasus.wire.PegasusOp;
import dev.innet.pegasus.wire.PegasusPacket;
import dev.innet.protocol.spec.ReplayContext;
import dev.innet.wire.InnetMessage;
import dev.innet.wire.RackAddressing;
import dev.innet.wire.UdpFrame;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A detector's client table keeps each client's most recent request (§6.4). A copy of an older request
 * that the network delivers after the client moved on must neither execute nor replace the newer entry:
 * otherwise a retry of the newer request executes twice (found by PegasusChainTest's AtMostOnceMonitor).
 */
class StaleRequestTest {
    private static final int SERVER = 1;
    private static final int CLIENT = 9;
    private static final byte[] KEY = InnetMessage.key("k");
    private static final byte[] OTHER = InnetMessage.key("other");

    private static byte[] write(long reqId, byte[] key, long version, String value) {
        InnetMessage m = PegasusPacket.message(PegasusOp.WRITE, 0, 0, reqId, key, version,
                new PegasusExt(0, 0, 0, PegasusExt.FLAG_DETECTOR), value.getBytes());
        return new UdpFrame(RackAddressing.hostMac(SERVER), RackAddressing.hostMac(CLIENT), RackAddressing.hostIp(CLIENT),
                RackAddressing.hostIp(SERVER), 40010, PegasusOp.PORT, m.encode()).encode();
    }

    @Test
    void aLateCopyOfAnOlderRequestIsDroppedAndTheNewerEntryKept() {
        ReplayContext ctx = new ReplayContext(SERVER, 1);
        PegasusServer server = new PegasusServer(new PegasusRack(List.of(SERVER), 254, 1_000_000, 3, 4, 0),
                RecordStoreOpener.memory());
        server.onStart(ctx);
        server.onPacket(write(5, KEY, 10, "new"));
        assertEquals(1, ctx.takeSent().size(), "the newer request is answered");
        server.onPacket(write(3, OTHER, 12, "old"));
        assertTrue(ctx.takeSent().isEmpty(), "the stale copy is not answered");
        assertTrue(server.storedRecord(OTHER).isEmpty(), "the stale copy did not execute");
        assertEquals(1L, server.counters().get("staleRequests"));
        ClientTable table = new ClientTable(ctx.durable());
        assertTrue(table.lookup(RackAddressing.hostIp(CLIENT), 40010, 5).isPresent(), "the newer request's entry stays");
        // a retry of the newer request is still recognised: answered with its recorded version, not executed again
        server.onPacket(write(5, KEY, 15, "new"));
        List<byte[]> sent = ctx.takeSent();
        assertEquals(1, sent.size());
        assertEquals(10, PegasusPacket.decodeOrDrop(sent.get(0), f -> true, () -> {}).message().seq());
        assertEquals(1L, server.counters().get("duplicates"));
    }
}
