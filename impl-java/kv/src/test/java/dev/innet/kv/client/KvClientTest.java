package dev.innet.kv.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.innet.kv.FakeContext;
import dev.innet.kv.server.ServerConfig;
import dev.innet.kv.server.StorageServer;
import dev.innet.kv.store.RecordStoreOpener;
import dev.innet.protocol.KvResult;
import dev.innet.sim.history.HistoryRecorder;
import dev.innet.sim.history.OpResult;
import dev.innet.wire.InnetMessage;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The client against one real server, frames handed over directly (no switch, no simulator). */
class KvClientTest {
    private static final int SERVER = 1;
    private static final int CLIENT = 20;

    @TempDir
    Path dir;
    private FakeContext serverCtx;
    private FakeContext clientCtx;
    private StorageServer server;
    private KvClient client;
    private HistoryRecorder history;
    private final List<KvResult> results = new ArrayList<>();

    @BeforeEach
    void wire() {
        serverCtx = new FakeContext(SERVER, dir);
        server = new StorageServer(ServerConfig.defaults(List.of(SERVER), 254), RecordStoreOpener.memory());
        server.onStart(serverCtx);
        clientCtx = new FakeContext(CLIENT, dir);
        history = new HistoryRecorder(clientCtx.clock());
        client = new KvClient(clientCtx, ClientConfig.defaults(List.of(SERVER)), history);
    }

    /** Delivers every frame the client sent to the server and every reply back; returns replies delivered. */
    private int exchange(boolean dropReplies) {
        List<byte[]> requests = new ArrayList<>(clientCtx.sent);
        clientCtx.sent.clear();
        int delivered = 0;
        for (byte[] r : requests) {
            serverCtx.sent.clear();
            server.onPacket(r);
            for (byte[] reply : serverCtx.sent) {
                if (!dropReplies && client.onPacket(reply)) {
                    delivered++;
                }
            }
        }
        return delivered;
    }

    private void fireTimeout() {
        long id = clientCtx.timers.firstKey();
        clientCtx.now = clientCtx.timers.remove(id);
        assertTrue(client.onTimer(id));
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void putThenGetRoundTripAndHistory() {
        byte[] k = InnetMessage.key("a");
        client.put(k, bytes("v1"), results::add);
        assertTrue(client.busy());
        assertEquals(1, exchange(false));
        client.get(k, results::add);
        exchange(false);
        assertEquals(KvResult.Outcome.OK, results.get(1).outcome());
        assertEquals("v1", new String(results.get(1).value(), StandardCharsets.UTF_8));
        assertEquals(2, history.operations().size());
        assertEquals(OpResult.OK, history.operations().get(1).result());
        assertThrows(IllegalStateException.class, () -> {
            client.get(k, results::add);
            client.get(k, results::add);
        }, "a second outstanding operation must be refused");
    }

    @Test
    void lostReadReplyIsRetriedWithTheSameRequestId() {
        byte[] k = InnetMessage.key("b");
        client.get(k, results::add);
        exchange(true); // reply lost
        fireTimeout(); // retransmits
        assertEquals(1, exchange(false));
        assertEquals(KvResult.Outcome.NOT_FOUND, results.get(0).outcome());
        assertEquals(2, results.get(0).attempts());
    }

    @Test
    void timedOutWriteEndsUnknownAndTheClientTakesANewHistoryId() {
        byte[] k = InnetMessage.key("c");
        int idBefore = client.historyClientId();
        client.put(k, bytes("maybe"), results::add);
        exchange(true); // applied at the server, but the reply is lost
        fireTimeout();
        assertEquals(KvResult.Outcome.TIMED_OUT, results.get(0).outcome());
        assertEquals(1, results.get(0).attempts(), "writes are not retried by default");
        assertEquals(OpResult.UNKNOWN, history.operations().get(0).result());
        assertNotEquals(idBefore, client.historyClientId());
        client.get(k, results::add); // allowed: a new history client
        exchange(false);
        assertEquals("maybe", new String(results.get(1).value(), StandardCharsets.UTF_8));
    }

    @Test
    void duplicateAndForeignRepliesAreIgnored() {
        byte[] k = InnetMessage.key("d");
        client.put(k, bytes("x"), results::add);
        List<byte[]> requests = new ArrayList<>(clientCtx.sent);
        exchange(false);
        // the same reply again (a duplicated packet) after completion: not consumed, no second callback
        serverCtx.sent.clear();
        server.onPacket(requests.get(0));
        assertFalse(client.onPacket(serverCtx.sent.get(0)));
        assertEquals(1, results.size());
        assertFalse(client.onPacket(new byte[] {0, 1, 2}));
    }
}
