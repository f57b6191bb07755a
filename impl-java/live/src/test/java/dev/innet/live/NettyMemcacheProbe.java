package dev.innet.live;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.memcache.binary.BinaryMemcacheClientCodec;
import io.netty.handler.codec.memcache.binary.BinaryMemcacheObjectAggregator;
import io.netty.handler.codec.memcache.binary.BinaryMemcacheOpcodes;
import io.netty.handler.codec.memcache.binary.DefaultFullBinaryMemcacheRequest;
import io.netty.handler.codec.memcache.binary.FullBinaryMemcacheRequest;
import io.netty.handler.codec.memcache.binary.FullBinaryMemcacheResponse;
import java.io.ByteArrayOutputStream;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A memcached client that is not innet's: requests are encoded and responses decoded by Netty's binary memcache codec
 * ({@code netty-codec-memcache}: {@link BinaryMemcacheClientCodec} and {@link BinaryMemcacheObjectAggregator}, run in
 * an {@link EmbeddedChannel}), and sent over a plain UDP socket. No library frames the binary protocol for UDP, so the
 * 8-byte UDP frame header (request id, sequence 0, 1 datagram, reserved) is the only part written here. Run as its own
 * process (in a rack's client namespace: {@code ip netns exec NS java -cp ... dev.innet.live.NettyMemcacheProbe HOST
 * PORT KEYS GETS}): it SETs KEYS 16-byte keys to 32-byte values (the sizes LaKe caches), then GETs each GETS times,
 * and prints one summary line; exit 0 when every answer was the value set, 1 otherwise.
 */
public final class NettyMemcacheProbe {
    private static final int TIMEOUT_MILLIS = 1_000;
    private static final int ATTEMPTS = 5;

    private final DatagramSocket socket;
    private final InetSocketAddress server;
    private int requestId;

    NettyMemcacheProbe(DatagramSocket socket, InetSocketAddress server) {
        this.socket = socket;
        this.server = server;
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 4) {
            System.err.println("usage: NettyMemcacheProbe HOST PORT KEYS GETS");
            System.exit(2);
        }
        InetSocketAddress server = new InetSocketAddress(InetAddress.getByName(args[0]), Integer.parseInt(args[1]));
        try (DatagramSocket socket = new DatagramSocket()) {
            socket.setSoTimeout(TIMEOUT_MILLIS);
            Summary s = new NettyMemcacheProbe(socket, server).run(Integer.parseInt(args[2]), Integer.parseInt(args[3]));
            System.out.println("netty-memcache: " + s);
            System.exit(s.allRight() ? 0 : 1);
        }
    }

    record Summary(int setsOk, int getsOk, int wrong, int unanswered) {
        boolean allRight() {
            return wrong == 0 && unanswered == 0;
        }

        @Override
        public String toString() {
            return "sets_ok=" + setsOk + " gets_ok=" + getsOk + " wrong=" + wrong + " unanswered=" + unanswered;
        }
    }

    Summary run(int keys, int gets) throws Exception {
        int setsOk = 0;
        int getsOk = 0;
        int wrong = 0;
        int unanswered = 0;
        for (int k = 0; k < keys; k++) {
            FullBinaryMemcacheResponse r = exchange(set(key(k), value(k)));
            if (r == null) {
                unanswered++;
            } else if (r.status() == 0) {
                setsOk++;
            } else {
                wrong++;
                System.err.println("SET key " + k + ": status " + r.status());
            }
            release(r);
        }
        for (int g = 0; g < gets; g++) {
            for (int k = 0; k < keys; k++) {
                FullBinaryMemcacheResponse r = exchange(get(key(k)));
                if (r == null) {
                    unanswered++;
                } else if (r.status() == 0 && Arrays.equals(bytes(r.content()), value(k))) {
                    getsOk++;
                } else {
                    wrong++;
                    System.err.println("GET key " + k + ": status " + r.status() + ", value "
                            + new String(bytes(r.content()), StandardCharsets.US_ASCII));
                }
                release(r);
            }
        }
        return new Summary(setsOk, getsOk, wrong, unanswered);
    }

    static byte[] key(int k) {
        return String.format("netty-key-%06d", k).getBytes(StandardCharsets.US_ASCII); // 16 bytes
    }

    static byte[] value(int k) {
        return String.format("%-32s", "value of netty key " + k).getBytes(StandardCharsets.US_ASCII); // 32 bytes
    }

    private static FullBinaryMemcacheRequest set(byte[] key, byte[] value) {
        ByteBuf extras = Unpooled.buffer(8).writeInt(0).writeInt(0); // flags, no expiry
        FullBinaryMemcacheRequest r = new DefaultFullBinaryMemcacheRequest(Unpooled.wrappedBuffer(key), extras,
                Unpooled.wrappedBuffer(value));
        r.setOpcode(BinaryMemcacheOpcodes.SET);
        return r;
    }

    private static FullBinaryMemcacheRequest get(byte[] key) {
        FullBinaryMemcacheRequest r = new DefaultFullBinaryMemcacheRequest(Unpooled.wrappedBuffer(key), Unpooled.EMPTY_BUFFER);
        r.setOpcode(BinaryMemcacheOpcodes.GET);
        return r;
    }

    /** Sends the request until a response with its frame's request id and its opaque arrives; null if none did. */
    private FullBinaryMemcacheResponse exchange(FullBinaryMemcacheRequest request) throws Exception {
        int id = ++requestId & 0xFFFF;
        request.setOpaque(0x5EED0000 | id);
        byte[] encoded = encode(request);
        byte[] datagram = ByteBuffer.allocate(8 + encoded.length).putShort((short) id).putShort((short) 0).putShort((short) 1)
                .putShort((short) 0).put(encoded).array();
        byte[] in = new byte[65_536];
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            socket.send(new DatagramPacket(datagram, datagram.length, server));
            long deadline = System.nanoTime() + TIMEOUT_MILLIS * 1_000_000L;
            while (System.nanoTime() < deadline) {
                DatagramPacket p = new DatagramPacket(in, in.length);
                try {
                    socket.receive(p);
                } catch (SocketTimeoutException e) {
                    break;
                }
                if (p.getLength() < 8 || ByteBuffer.wrap(in, 0, 2).getShort() != (short) id) {
                    continue; // an answer to an earlier attempt
                }
                FullBinaryMemcacheResponse r = decode(Arrays.copyOfRange(in, 8, p.getLength()));
                if (r != null && r.opaque() == request.opaque()) {
                    return r;
                }
                release(r);
            }
        }
        return null;
    }

    /** The request as Netty's encoder writes it (header, extras, key, then the value). */
    private static byte[] encode(FullBinaryMemcacheRequest request) {
        EmbeddedChannel ch = new EmbeddedChannel(new BinaryMemcacheClientCodec());
        ch.writeOutbound(request);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (Object o = ch.readOutbound(); o != null; o = ch.readOutbound()) {
            ByteBuf b = (ByteBuf) o;
            out.writeBytes(bytes(b));
            b.release();
        }
        ch.finishAndReleaseAll();
        return out.toByteArray();
    }

    /** The response as Netty's decoder and aggregator read it, or null if they make no whole response of it. */
    private static FullBinaryMemcacheResponse decode(byte[] payload) {
        EmbeddedChannel ch = new EmbeddedChannel(new BinaryMemcacheClientCodec(), new BinaryMemcacheObjectAggregator(1 << 20));
        ch.writeInbound(Unpooled.wrappedBuffer(payload));
        Object o = ch.readInbound();
        ch.finishAndReleaseAll();
        return o instanceof FullBinaryMemcacheResponse r ? r : null;
    }

    private static byte[] bytes(ByteBuf b) {
        byte[] out = new byte[b.readableBytes()];
        b.getBytes(b.readerIndex(), out);
        return out;
    }

    private static void release(FullBinaryMemcacheResponse r) {
        if (r != null) {
            r.release();
        }
    }
}
