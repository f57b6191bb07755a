package dev.innet.sim.live;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FileDurableStoreTest {
    @Test
    void onlySyncedWritesSurviveAReopen(@TempDir Path dir) {
        FileDurableStore before = new FileDurableStore(dir);
        before.put("a/b", new byte[] {1});
        before.put("gone", new byte[] {9});
        before.sync();
        before.delete("gone");
        before.sync();
        before.put("late", new byte[] {2});
        assertEquals(List.of("a/b", "late"), List.copyOf(before.keys()));

        FileDurableStore after = new FileDurableStore(dir); // what a restarted process finds
        assertArrayEquals(new byte[] {1}, after.get("a/b").orElseThrow());
        assertTrue(after.get("late").isEmpty());
        assertTrue(after.get("gone").isEmpty());
        assertEquals(List.of("a/b"), List.copyOf(after.keys()));
        assertTrue(Files.isDirectory(after.directory()));
    }
}
