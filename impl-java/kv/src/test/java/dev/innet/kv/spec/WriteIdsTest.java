package dev.innet.kv.spec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class WriteIdsTest {
    @Test
    void everyWriteIdSurvivesTheRoundTrip() {
        for (long id = 0; id <= 2000; id++) {
            assertEquals(id, WriteIds.writeIdOf(WriteIds.valueOf(id)));
        }
        assertEquals(0, WriteIds.writeIdOf(new byte[0]));
        assertEquals("w0", new String(WriteIds.valueOf(0), StandardCharsets.US_ASCII));
    }

    @Test
    void theFirstWritesFillEveryValueWordOfTheSwitchCache() {
        Set<Integer> words = new HashSet<>();
        for (long id = 1; id <= 40; id++) {
            int length = WriteIds.valueOf(id).length;
            assertTrue(length >= 2 && length <= WriteIds.MAX_LENGTH, "length " + length);
            words.add((length + 7) / 8);
        }
        assertEquals(16, words.size(), "value words used by writes 1..40: " + words);
        assertEquals(WriteIds.MAX_LENGTH, WriteIds.valueOf(1).length);
    }

    @Test
    void aValueCutShortOrForeignIsNotTakenForItsWrite() {
        byte[] third = WriteIds.valueOf(3);
        IllegalStateException cut = assertThrows(IllegalStateException.class,
                () -> WriteIds.writeIdOf(Arrays.copyOf(third, third.length - 8)));
        assertTrue(cut.getMessage().contains("write 3"), cut.getMessage());
        assertThrows(IllegalStateException.class, () -> WriteIds.writeIdOf("x7".getBytes(StandardCharsets.US_ASCII)));
        assertThrows(IllegalStateException.class, () -> WriteIds.writeIdOf("w07".getBytes(StandardCharsets.US_ASCII)));
    }
}
