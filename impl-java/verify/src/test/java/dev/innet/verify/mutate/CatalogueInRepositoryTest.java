package dev.innet.verify.mutate;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The committed catalogue parses and every one of its edits still finds its line in the repository. */
class CatalogueInRepositoryTest {
    @Test
    void everyCataloguedEditMatchesTheCode() throws Exception {
        Path root = Path.of(System.getProperty("innet.root", "../..")).toAbsolutePath().normalize();
        Path file = root.resolve("mutate/catalogue.txt");
        assertTrue(Files.isRegularFile(file), "no " + file);
        Catalogue catalogue = Catalogue.read(file);
        MutateMain.checkAgainst(root, catalogue.bugs());
        long multiLayer = catalogue.bugs().stream().filter(b -> b.kinds().size() >= 2).count();
        assertTrue(multiLayer >= 5, "most bugs should be seeded in more than one layer: " + multiLayer);
    }
}
