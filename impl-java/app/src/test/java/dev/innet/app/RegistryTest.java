package dev.innet.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.innet.protocol.Protocol;
import dev.innet.protocol.ProtocolRegistry;
import dev.innet.rack.RackRuns;
import java.nio.file.Files;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The registry finds every protocol module on the application's class path, and each names a real program. */
class RegistryTest {
    @Test
    void everyProtocolModuleIsRegisteredOnce() {
        assertEquals(List.of("distcache", "farreach", "lake", "netcache", "nocache", "pegasus", "pegasus-chain", "visibility", "visibility-fs"),
                ProtocolRegistry.names());
    }

    @Test
    void eachProtocolsProgramExists() {
        for (Protocol p : ProtocolRegistry.all()) {
            assertTrue(Files.isRegularFile(RackRuns.root().resolve(p.p4Program())), p.name() + ": " + p.p4Program());
        }
    }

    @Test
    void anUnknownNameSaysWhichExist() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ProtocolRegistry.byName("pegasus2"));
        assertTrue(e.getMessage().contains("pegasus2") && e.getMessage().contains("farreach"), e.getMessage());
    }
}
