package dev.innet.sim.testnodes;

import dev.innet.sim.DurableStore;
import dev.innet.sim.Node;
import dev.innet.sim.NodeContext;
import dev.innet.wire.InnetMessage;
import dev.innet.wire.RackAddressing;
import dev.innet.wire.UdpFrame;
import dev.innet.wire.WireException;

import java.nio.ByteBuffer;
import java.util.HexFormat;
import java.util.Optional;

/**
 * Test-only key-value server on UDP 5008 (wire-format.md §3 GET/PUT/DEL): every write is synced
 * before it is acknowledged, and each client's last applied request id is stored with it, so a
 * duplicated or retried write is acknowledged without being applied twice, even across a crash.
 * {@code forgetsDuplicates} turns that off: the bug a duplicating network exposes.
 */
public final class KvServerNode implements Node {
    public static final int PORT = 5008;
    public static final int GET = 0x01;
    public static final int PUT = 0x02;
    public static final int DEL = 0x03;
    public static final int STATUS_OK = 0;
    public static final int STATUS_NOT_FOUND = 1;
    public static final int STATUS_BAD_OP = 3;

    private final boolean forgetsDuplicates;
    private NodeContext ctx;
    public int malformed;

    public KvServerNode(boolean forgetsDuplicates) {
        this.forgetsDuplicates = forgetsDuplicates;
    }

    @Override
    public void onStart(NodeContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public void onTimer(long timerId) {
        throw new IllegalStateException("the server sets no timers");
    }

    @Override
    public void onPacket(byte[] bytes) {
        UdpFrame frame;
        InnetMessage request;
        try {
            frame = UdpFrame.decode(bytes);
            request = InnetMessage.decode(frame.payload());
        } catch (WireException e) {
            malformed++;
            return;
        }
        if (frame.dstPort() != PORT || request.isReply()) {
            malformed++;
            return;
        }
        DurableStore store = ctx.durable();
        String valueKey = "kv." + HexFormat.of().formatHex(request.key());
        String clientKey = "applied." + RackAddressing.ipToString(frame.srcIp()) + ":" + frame.srcPort();
        InnetMessage reply;
        switch (request.op()) {
            case GET -> {
                Optional<byte[]> value = store.get(valueKey);
                reply = value.isPresent() ? request.reply(STATUS_OK, 0, value.get())
                        : request.reply(STATUS_NOT_FOUND, 0, new byte[0]);
            }
            case PUT, DEL -> {
                long lastApplied = store.get(clientKey).map(b -> ByteBuffer.wrap(b).getLong()).orElse(-1L);
                if (forgetsDuplicates || request.reqId() > lastApplied) {
                    if (request.op() == PUT) {
                        store.put(valueKey, request.value());
                    } else {
                        store.delete(valueKey);
                    }
                    store.put(clientKey, ByteBuffer.allocate(8).putLong(request.reqId()).array());
                    store.sync(); // durable before acknowledged
                }
                reply = request.reply(STATUS_OK, 0, new byte[0]);
            }
            default -> reply = request.reply(STATUS_BAD_OP, 0, new byte[0]);
        }
        ctx.network().send(frame.reply(reply.encode()));
    }
}
