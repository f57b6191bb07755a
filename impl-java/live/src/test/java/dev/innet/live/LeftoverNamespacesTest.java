package dev.innet.live;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** A killed run's empty namespaces are reclaimed; a namespace that something runs in is refused and kept. */
class LeftoverNamespacesTest {
    private final String ns = "innet-leftover-" + ProcessHandle.current().pid();

    @BeforeAll
    static void namespacesAllowed() {
        NetworkNamespaces.assumeAllowed("innet-leftover");
    }

    @Test
    void anEmptyLeftoverIsDeletedWithALine() {
        Commands.run("ip", "netns", "add", ns);
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        try {
            LeftoverNamespaces.reclaimIfLeftover(ns, "leftover", new PrintStream(log, true, StandardCharsets.UTF_8));
            assertFalse(Files.exists(RackDown.namespaceFile(ns)), "the leftover namespace is gone");
            assertTrue(log.toString(StandardCharsets.UTF_8).contains("removed namespace " + ns), log.toString());
        } finally {
            Commands.tryRun("ip", "netns", "del", ns);
        }
    }

    @Test
    void aNamespaceInUseIsRefusedAndKept() throws Exception {
        Commands.run("ip", "netns", "add", ns);
        Process sleeper = new ProcessBuilder("ip", "netns", "exec", ns, "sleep", "30").start();
        try {
            awaitProcessIn(ns);
            IllegalStateException e = assertThrows(IllegalStateException.class,
                    () -> LeftoverNamespaces.reclaimIfLeftover(ns, "leftover", new PrintStream(new ByteArrayOutputStream())));
            assertTrue(e.getMessage().contains(Long.toString(sleeper.pid())), e.getMessage());
            assertTrue(e.getMessage().contains("rack down --name leftover"), e.getMessage());
            assertTrue(Files.exists(RackDown.namespaceFile(ns)), "a namespace in use is not deleted");
        } finally {
            sleeper.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            Commands.tryRun("ip", "netns", "del", ns);
        }
    }

    @Test
    void anAbsentNamespaceNeedsNothing() {
        assertDoesNotThrow(() -> LeftoverNamespaces.reclaimIfLeftover(ns, "leftover", new PrintStream(new ByteArrayOutputStream())));
        assertFalse(Files.exists(RackDown.namespaceFile(ns)));
    }

    private static void awaitProcessIn(String ns) throws InterruptedException {
        for (int i = 0; i < 100; i++) {
            if (!Commands.tryRun("ip", "netns", "pids", ns).output().isBlank()) {
                return;
            }
            Thread.sleep(20);
        }
        throw new AssertionError("sleep never ran in " + ns);
    }
}
