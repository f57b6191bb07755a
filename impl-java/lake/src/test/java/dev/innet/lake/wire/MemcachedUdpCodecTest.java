package dev.innet.lake.wire;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

class MemcachedUdpCodecTest {

    /** What a well-formed vector's fields say the datagram holds. */
    private static McDatagram expected(McVector v) {
        McFrame frame = McFrame.single((int) v.number("request_id"));
        McOpcode op = McOpcode.valueOf(v.field("op"));
        int opaque = (int) v.number("opaque");
        McMessage m = switch (v.field("kind")) {
            case "request" -> new McRequest(op, v.text("key"), v.text("value"), (int) v.number("flags"),
                    (int) v.number("expiration"), opaque, v.number("cas"));
            case "response" -> new McResponse(op, (int) v.number("status"), v.text("value"), (int) v.number("flags"),
                    opaque, v.number("cas"));
            default -> throw new IllegalStateException(v + ": kind " + v.field("kind"));
        };
        return new McDatagram(frame, m);
    }

    @TestFactory
    Stream<DynamicTest> wellFormedVectorsDecodeToTheirFieldsAndEncodeBackToTheirBytes() throws IOException {
        List<McVector> vectors = McVector.load("binary-udp.vec");
        assertEquals(8, vectors.size(), "vectors in binary-udp.vec");
        return vectors.stream().map(v -> DynamicTest.dynamicTest(v.name(), () -> {
            McDatagram want = expected(v);
            assertEquals(want, MemcachedUdpCodec.decode(v.bytes()));
            assertArrayEquals(v.bytes(), MemcachedUdpCodec.encode(want));
        }));
    }

    @TestFactory
    Stream<DynamicTest> malformedVectorsAreRejectedWithTheirError() throws IOException {
        return McVector.load("binary-udp-malformed.vec").stream().map(v -> DynamicTest.dynamicTest(v.name(), () -> {
            McException e = assertThrows(McException.class, () -> MemcachedUdpCodec.decode(v.bytes()));
            assertEquals(McError.valueOf(v.field("error")), e.error(), e.getMessage());
        }));
    }

    @Test
    void everyErrorHasAMalformedVector() throws IOException {
        Set<McError> named = McVector.load("binary-udp-malformed.vec").stream()
                .map(v -> McError.valueOf(v.field("error"))).collect(Collectors.toSet());
        assertEquals(EnumSet.allOf(McError.class), EnumSet.copyOf(named));
    }

    @Test
    void everyPrefixOfAValidDatagramIsRejectedCleanly() throws Exception {
        for (McVector v : McVector.load("binary-udp.vec")) {
            for (int n = 0; n < v.bytes().length; n++) {
                byte[] cut = Arrays.copyOf(v.bytes(), n);
                McException e = assertThrows(McException.class, () -> MemcachedUdpCodec.decode(cut), v + " cut at " + n);
                assertEquals(true, EnumSet.of(McError.FRAME_TRUNCATED, McError.HEADER_TRUNCATED, McError.BODY_TRUNCATED)
                        .contains(e.error()), v + " cut at " + n + ": " + e.getMessage());
            }
        }
    }

    @Test
    void randomBytesNeverEscapeAsAnythingButMcException() {
        Random rnd = new Random(19);
        for (int i = 0; i < 20_000; i++) {
            byte[] b = new byte[rnd.nextInt(80)];
            rnd.nextBytes(b);
            if (b.length >= 8 && rnd.nextBoolean()) {
                // mostly a plausible frame header, so the binary header's checks are reached too
                b[2] = 0; b[3] = 0; b[4] = 0; b[5] = 1; b[6] = 0; b[7] = 0;
            }
            try {
                McDatagram d = MemcachedUdpCodec.decode(b);
                assertArrayEquals(b, MemcachedUdpCodec.encode(d), "a decoded datagram re-encodes to its bytes");
            } catch (McException expected) {
                // rejected with a named error: fine
            }
        }
    }

    @Test
    void randomMessagesRoundTrip() throws Exception {
        Random rnd = new Random(7);
        for (int i = 0; i < 2_000; i++) {
            McDatagram d = new McDatagram(McFrame.single(rnd.nextInt(0x10000)), randomMessage(rnd));
            assertEquals(d, MemcachedUdpCodec.decode(MemcachedUdpCodec.encode(d)));
        }
    }

    private static McMessage randomMessage(Random rnd) {
        ByteString key = randomBytes(rnd, 1 + rnd.nextInt(McRequest.MAX_KEY_BYTES));
        int opaque = rnd.nextInt();
        return switch (rnd.nextInt(6)) {
            case 0 -> McRequest.get(key, opaque);
            case 1 -> McRequest.set(key, randomBytes(rnd, rnd.nextInt(300)), rnd.nextInt(), rnd.nextInt(), opaque);
            case 2 -> McRequest.delete(key, opaque);
            case 3 -> McResponse.getHit(randomBytes(rnd, rnd.nextInt(300)), rnd.nextInt(), opaque, rnd.nextLong());
            case 4 -> McResponse.status(McOpcode.GET, McStatus.KEY_NOT_FOUND, "Not found", opaque, 0);
            default -> McResponse.status(rnd.nextBoolean() ? McOpcode.SET : McOpcode.DELETE, McStatus.OK, "",
                    opaque, rnd.nextLong());
        };
    }

    private static ByteString randomBytes(Random rnd, int n) {
        byte[] b = new byte[n];
        rnd.nextBytes(b);
        return ByteString.of(b);
    }

    @Test
    void constructorsRefuseMessagesTheWireCannotCarry() {
        ByteString longKey = ByteString.of(new byte[McRequest.MAX_KEY_BYTES + 1]);
        assertThrows(IllegalArgumentException.class, () -> McRequest.get(longKey, 0));
        assertThrows(IllegalArgumentException.class, () -> McRequest.get(ByteString.EMPTY, 0));
        assertThrows(IllegalArgumentException.class,
                () -> new McRequest(McOpcode.GET, ByteString.utf8("k"), ByteString.utf8("v"), 0, 0, 0, 0));
        assertThrows(IllegalArgumentException.class,
                () -> new McResponse(McOpcode.SET, McStatus.OK, ByteString.utf8("v"), 0, 0, 0));
        assertThrows(IllegalArgumentException.class, () -> new McFrame(0x10000, 0, 1));
    }
}
