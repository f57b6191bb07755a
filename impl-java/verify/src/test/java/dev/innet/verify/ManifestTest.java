package dev.innet.verify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ManifestTest {
    @TempDir
    Path dir;

    private void write(String manifest, String... files) throws Exception {
        Files.writeString(dir.resolve("MANIFEST"), manifest);
        for (String f : files) {
            Files.writeString(dir.resolve(f), "");
        }
    }

    @Test
    void parsesTiersExpectationsAndNotes() throws Exception {
        write("# comment\nMCA small ok 2 keys\nMCB full violates Safe LIMITATION: client and switch crash\nMCC medium ok\n",
                "MCA.tla", "MCA.cfg", "MCB.tla", "MCB.cfg", "MCC.tla", "MCC.cfg");
        var entries = Manifest.read(dir, ManifestEntry.Kind.TLC);
        assertEquals(3, entries.size());
        assertEquals(ManifestEntry.Tier.SMALL, entries.get(0).tier());
        assertEquals(ManifestEntry.Tier.MEDIUM, entries.get(2).tier());
        assertEquals(new Expectation.Holds(), entries.get(0).expectation());
        assertEquals("2 keys", entries.get(0).note());
        assertEquals(new Expectation.Violates("Safe"), entries.get(1).expectation());
        assertEquals(ManifestEntry.Tier.FULL, entries.get(1).tier());
        assertTrue(entries.get(1).isLimitation());
    }

    @Test
    void rejectsWhatWouldSilentlyDisableACheck() throws Exception {
        write("MCA small violates\n", "MCA.tla", "MCA.cfg");
        assertThrows(Manifest.ManifestException.class, () -> Manifest.read(dir, ManifestEntry.Kind.TLC));
        write("MCA large ok\n", "MCA.tla", "MCA.cfg");
        assertThrows(Manifest.ManifestException.class, () -> Manifest.read(dir, ManifestEntry.Kind.TLC));
        write("MCA small ok\nMCA small ok\n", "MCA.tla", "MCA.cfg");
        assertThrows(Manifest.ManifestException.class, () -> Manifest.read(dir, ManifestEntry.Kind.TLC));
        write("MCMissing small ok\n");
        var e = assertThrows(Manifest.ManifestException.class, () -> Manifest.read(dir, ManifestEntry.Kind.TLC));
        assertTrue(e.getMessage().contains("missing file MCMissing.tla"), e.getMessage());
        write("# nothing\n");
        assertThrows(Manifest.ManifestException.class, () -> Manifest.read(dir, ManifestEntry.Kind.TLC));
    }

    @Test
    void coversAndTheSimTier() throws Exception {
        write("MCA small ok covers=Step,Reset 2 keys\nMCS sim violates Safe random simulation\n",
                "MCA.tla", "MCA.cfg", "MCS.tla", "MCS.cfg");
        var entries = Manifest.read(dir, ManifestEntry.Kind.TLC);
        assertEquals(java.util.List.of("Step", "Reset"), entries.get(0).covers());
        assertEquals("2 keys", entries.get(0).note());
        assertEquals(ManifestEntry.Tier.SIM, entries.get(1).tier());
        assertTrue(entries.get(1).covers().isEmpty());
        write("MCA small violates Safe covers=Step\n", "MCA.tla", "MCA.cfg");
        var e = assertThrows(Manifest.ManifestException.class, () -> Manifest.read(dir, ManifestEntry.Kind.TLC));
        assertTrue(e.getMessage().contains("covers= applies to ok models"), e.getMessage());
        write("MCA small ok covers=Step,,x-y\n", "MCA.tla", "MCA.cfg");
        assertThrows(Manifest.ManifestException.class, () -> Manifest.read(dir, ManifestEntry.Kind.TLC));
    }

    @Test
    void ivyLines() throws Exception {
        write("p.ivy ok proves it\np_bug.ivy fails refuted\n", "p.ivy", "p_bug.ivy");
        var entries = Manifest.read(dir, ManifestEntry.Kind.IVY);
        assertEquals(new Expectation.ProofFails(), entries.get(1).expectation());
    }
}
