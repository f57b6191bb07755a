package dev.innet.farreach.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.innet.wire.InnetMessage;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SnapshotCoverageTest {
    @Test
    void entriesRoundTripAcrossMessages() {
        List<SnapshotCoverage.Entry> entries = new ArrayList<>();
        Map<String, Long> expected = new LinkedHashMap<>();
        for (int i = 0; i < 80; i++) {
            byte[] key = InnetMessage.key("k" + i);
            long seq = 0xffff_fff0L + i % 16; // unsigned values near the top of the range survive
            entries.add(new SnapshotCoverage.Entry(key, seq));
            expected.put(HexFormat.of().formatHex(key), seq);
        }
        List<byte[]> values = SnapshotCoverage.encode(entries);
        assertEquals(2, values.size(), "68 entries fit one 1376-byte value");
        Map<String, Long> decoded = new LinkedHashMap<>();
        for (byte[] v : values) {
            assertEquals(true, v.length <= InnetMessage.MAX_VALUE_BYTES);
            SnapshotCoverage.decode(v, decoded::put);
        }
        assertEquals(expected, decoded);
    }
}
