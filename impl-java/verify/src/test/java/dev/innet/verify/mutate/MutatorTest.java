package dev.innet.verify.mutate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MutatorTest {
    @TempDir
    Path tree;

    private Catalogue.Bug bug(String... lines) {
        return Catalogue.parse(List.of(lines), "test").bugs().get(0);
    }

    @Test
    void anEditReplacesTheLineAfterItsAnchorKeepingIndentationAndRestoreUndoesIt() throws Exception {
        Path file = tree.resolve("src/A.java");
        Files.createDirectories(file.getParent());
        String original = "class A {\n    boolean f() {\n        return false;\n    }\n    boolean g() {\n        return false;\n    }\n}\n";
        Files.writeString(file, original);
        Mutator.Applied applied = Mutator.apply(tree, bug("bug b", "protocol p", "what w", "edit src/A.java",
                "at boolean g() {", "- return false;", "+ return true;"));
        String mutated = Files.readString(file);
        // only g's line changed, with its indentation
        assertEquals(original.replace("g() {\n        return false;", "g() {\n        return true;"), mutated);
        applied.restore();
        assertEquals(original, Files.readString(file));
    }

    @Test
    void anEditThatFindsNoLineChangesNothingAndSaysWhich() throws Exception {
        Path a = tree.resolve("a.tla");
        Path b = tree.resolve("b.tla");
        Files.writeString(a, "x == 1\n");
        Files.writeString(b, "y == 2\n");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Mutator.apply(tree,
                bug("bug b", "protocol p", "what w", "edit a.tla", "- x == 1", "+ x == 2", "edit b.tla", "- z == 3", "+ z == 4")));
        assertTrue(e.getMessage().contains("b.tla has no line 'z == 3'"), e.getMessage());
        assertEquals("x == 1\n", Files.readString(a), "the first edit was not written either");
    }
}
