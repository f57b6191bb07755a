package dev.innet.live.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Live workloads pad unique values to the protocol's length (LaKe caches 32-byte values only). */
class PaddedValuesTest {
    private static String padded(String unique, int length) {
        return new String(WorkloadHost.padded(unique, length), StandardCharsets.UTF_8);
    }

    @Test
    void valuesArePaddedNeverTruncated() {
        assertEquals("h3i0n1" + ".".repeat(26), padded("h3i0n1", 32));
        assertEquals("h3i0n1", padded("h3i0n1", 0), "0: no padding");
        assertEquals("h3i0n1", padded("h3i0n1", 4), "a longer unique value keeps its length: uniqueness first");
        assertEquals(16, WorkloadHost.keyOf(0).length, "keys are LaKe's 16 bytes");
        assertThrows(IllegalArgumentException.class, () -> new WorkloadHost(null, null, WorkloadHost.Journal.NONE, -1));
    }
}
