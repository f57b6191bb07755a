package dev.innet.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RackPlanTest {
    @Test
    void whatIsRecordedIsReadBackInOrder(@TempDir Path dir) {
        Path file = dir.resolve("plan.txt");
        RackPlan plan = RackPlan.create(file);
        plan.setting("protocol", "farreach");
        plan.namespace("innet-a-sw");
        plan.namespace("innet-a-h1");
        plan.link("innet-a-sw", "p1");
        plan.process(new RackPlan.Process("server-h1", 4242, 99, dir.resolve("logs/server-h1.log")));

        RackPlan back = RackPlan.read(file);
        assertEquals("farreach", back.setting("protocol"));
        assertEquals(List.of("innet-a-sw", "innet-a-h1"), back.namespaces());
        assertEquals(List.of(new RackPlan.Link("innet-a-sw", "p1")), back.links());
        assertEquals(List.of(new RackPlan.Process("server-h1", 4242, 99, dir.resolve("logs/server-h1.log"))), back.processes());
    }

    @Test
    void aRackThatIsUpIsNeverOverwritten(@TempDir Path dir) {
        Path file = dir.resolve("plan.txt");
        RackPlan.create(file).namespace("innet-a-sw");
        assertThrows(IllegalStateException.class, () -> RackPlan.create(file));
        assertEquals(List.of("innet-a-sw"), RackPlan.read(file).namespaces());
    }

    @Test
    void aDamagedLineIsNamed(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("plan.txt");
        Files.writeString(file, "netns innet-a-sw\nprocess server-h1 12\n");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> RackPlan.read(file));
        assertTrue(e.getMessage().startsWith(file + ":2: "), e.getMessage());
    }

    @Test
    void aRestartedProcessIsCurrentUnderItsNameAndTheOldRecordStays(@TempDir Path dir) {
        Path file = dir.resolve("plan.txt");
        RackPlan plan = RackPlan.create(file);
        Path log = dir.resolve("logs/server-h1.log");
        plan.process(new RackPlan.Process("switch", 10, 1, dir.resolve("logs/switch.log")));
        plan.process(new RackPlan.Process("server-h1", 11, 2, log));
        plan.process(new RackPlan.Process("server-h1", 57, 9, log));
        plan.setting("seeded-bug", "volatile-store");

        RackPlan back = RackPlan.read(file);
        assertEquals(List.of(new RackPlan.Process("switch", 10, 1, dir.resolve("logs/switch.log")),
                new RackPlan.Process("server-h1", 57, 9, log)), back.currentProcesses());
        assertEquals(3, back.processes().size(), "down still sees the old pid");
        assertEquals("volatile-store", back.settingOr("seeded-bug", ""));
        assertEquals("", back.settingOr("target-x", ""));
    }
}
