package dev.innet.lake.host;

import dev.innet.lake.LakeTraceEvents;
import dev.innet.lake.wire.ByteString;
import dev.innet.lake.wire.McOpcode;
import dev.innet.lake.wire.McRequest;
import dev.innet.lake.wire.McResponse;
import dev.innet.protocol.NodeCounters;
import dev.innet.sim.TraceEvent;
import java.util.HexFormat;
import java.util.Locale;
import dev.innet.sim.Node;
import dev.innet.sim.NodeContext;
import dev.innet.wire.UdpFrame;
import dev.innet.wire.WireException;
import java.util.Map;
import java.util.Optional;

/**
 * A rack host running memcached, as the simulator has it: {@link MemcachedBackend} behind UDP port
 * 11211. Like memcached it keeps items in memory only, so a restart starts empty. Frames that are not
 * UDP to 11211, or not a request the backend understands, are counted and dropped.
 */
public final class MemcachedHost implements Node, NodeCounters {
    public static final int MEMCACHED_PORT = 11211;

    private NodeContext ctx;
    private MemcachedBackend backend;
    private long served;
    private long ignored;

    @Override
    public void onStart(NodeContext context) {
        this.ctx = context;
        this.backend = new MemcachedBackend();
        ctx.trace(TraceEvent.of(LakeTraceEvents.HOST_START));
    }

    @Override
    public void onPacket(byte[] frame) {
        UdpFrame in;
        try {
            in = UdpFrame.decode(frame);
        } catch (WireException e) {
            ignored++;
            return;
        }
        Optional<byte[]> reply = in.dstPort() == MEMCACHED_PORT
                ? backend.handleDatagram(in.payload(), this::traceRequest) : Optional.empty();
        if (reply.isEmpty()) {
            ignored++;
            return;
        }
        served++;
        ctx.network().send(in.reply(reply.get()));
    }

    /** Trace validation: memcached applied {@code request} and answered {@code response} (Lake.tla's HostSet / HostGet). */
    private void traceRequest(McRequest request, McResponse response) {
        ByteString value = request.opcode() == McOpcode.GET ? response.value() : request.value();
        HexFormat hex = HexFormat.of();
        ctx.trace(TraceEvent.of(LakeTraceEvents.HOST_REQUEST).with("op", request.opcode().name().toLowerCase(Locale.ROOT))
                .with("opaque", Integer.toUnsignedLong(request.opaque())).with("key", hex.formatHex(request.key().toArray()))
                .with("value", hex.formatHex(value.toArray())).with("status", response.status()));
    }

    /** The memcached this host runs (its items are what a spec replay compares with the spec's store). */
    public MemcachedBackend backend() {
        if (backend == null) {
            throw new IllegalStateException("the host has not started");
        }
        return backend;
    }

    @Override
    public void onTimer(long timerId) {
        // memcached here has no timers: no expiry (see MemcachedBackend)
    }

    @Override
    public Map<String, Long> counters() {
        return Map.of("served", served, "ignored", ignored);
    }
}
