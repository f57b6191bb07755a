package dev.innet.verify.mutate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.innet.verify.mutate.Catalogue.SourceKind;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class CatalogueTest {
    private static final List<String> TWO_LAYER_BUG = List.of(
            "# a comment",
            "bug server-ignores-seq",
            "protocol farreach",
            "what servers overwrite on every write",
            "edit impl-java/kv/src/main/java/A.java",
            "at   static boolean supersedes(",
            "-    return a > b;",
            "+    return true;",
            "",
            "edit specs/farreach/FarReach.tla",
            "-    Apply(cur, r) == IF r.s > cur.s THEN r ELSE cur",
            "+    Apply(cur, r) == r");

    @Test
    void aBugWithEditsInTwoLayersIsRead() {
        Catalogue c = Catalogue.parse(TWO_LAYER_BUG, "test");
        Catalogue.Bug bug = c.bugs().get(0);
        assertEquals("server-ignores-seq", bug.id());
        assertEquals("farreach", bug.protocol());
        assertEquals(2, bug.edits().size());
        assertEquals("static boolean supersedes(", bug.edits().get(0).anchor());
        assertEquals("return a > b;", bug.edits().get(0).before());
        assertEquals("return true;", bug.edits().get(0).after());
        assertEquals(Set.of(SourceKind.JAVA, SourceKind.TLA), bug.kinds());
    }

    private static String errorOf(String... lines) {
        return assertThrows(IllegalArgumentException.class, () -> Catalogue.parse(List.of(lines), "cat")).getMessage();
    }

    @Test
    void malformedCataloguesAreRefusedNamingTheLine() {
        assertTrue(errorOf("bug Bad_Id").startsWith("cat:1: a bug id"), errorOf("bug Bad_Id"));
        assertTrue(errorOf("protocol farreach").startsWith("cat:1: 'protocol' before any 'bug'"));
        assertTrue(errorOf("bug a", "protocol p", "what w", "edit x.tla", "+ y").startsWith("cat:5: a '+' line belongs"));
        assertTrue(errorOf("bug a", "protocol p", "what w", "edit x.txt").contains("no layer checks files like x.txt"));
        assertTrue(errorOf("bug a", "protocol p", "what w", "edit x.tla", "- y").contains("has no '+' line"));
        assertTrue(errorOf("bug a", "protocol p", "what w").contains("needs 'protocol', 'what' and at least one edit"));
        assertTrue(errorOf("bug a", "protocol p", "what w", "edit x.tla", "- y", "+ z", "bug a")
                .contains("catalogued twice"));
        assertTrue(errorOf("bug a", "frobnicate").contains("unknown keyword 'frobnicate'"));
        assertTrue(errorOf("# nothing").contains("no bugs"));
    }

    @Test
    void layersSeeOnlyTheSourcesTheyRead() {
        Set<SourceKind> javaOnly = Set.of(SourceKind.JAVA);
        assertTrue(Layer.UNIT.sees(javaOnly) && Layer.CAMPAIGN.sees(javaOnly) && Layer.JEPSEN.sees(javaOnly));
        assertTrue(!Layer.SPEC.sees(javaOnly) && !Layer.IVY.sees(javaOnly) && !Layer.STF.sees(javaOnly));
        assertTrue(Layer.SPEC.sees(Set.of(SourceKind.TLA)) && Layer.STF.sees(Set.of(SourceKind.P4)));
        assertEquals("kv", Layer.javaModuleOf("impl-java/kv/src/main/java/dev/innet/kv/store/RecordStore.java"));
    }

    /** A protocol whose ./innet sim crashes only when asked gets a crash campaign too; one that never crashes does not. */
    @Test
    void theCampaignLayerAddsACrashCampaignWhereTheProtocolHasOne() {
        Catalogue.Edit edit = Catalogue.parse(TWO_LAYER_BUG, "test").bugs().get(0).edits().get(0);
        for (String protocol : List.of("farreach", "pegasus", "visibility")) {
            List<List<String>> commands = Layer.CAMPAIGN.commands(new Catalogue.Bug("b", protocol, "w", List.of(edit)));
            assertEquals(2, commands.size(), protocol + ": " + commands);
            assertTrue(commands.get(1).containsAll(List.of("--program", protocol, "--crashes", "all")), commands.toString());
        }
        List<List<String>> netcache = Layer.CAMPAIGN.commands(new Catalogue.Bug("b", "netcache", "w", List.of(edit)));
        assertEquals(1, netcache.size(), netcache.toString());
        assertTrue(!netcache.get(0).contains("--crashes"), netcache.toString());
    }

    /** Maven alone does not build the porcupine checker the rack tests need: a fresh scratch tree has none. */
    @Test
    void theUnitLayerBuildsTheCheckerBeforeTheTests() {
        Catalogue.Bug bug = Catalogue.parse(TWO_LAYER_BUG, "test").bugs().get(0);
        List<List<String>> commands = Layer.UNIT.commands(bug);
        assertEquals(List.of("./innet", "lincheck", "-h"), commands.get(0));
        assertTrue(commands.get(1).get(2).contains("mvn"), commands.toString());
    }

    @Test
    void conformanceSeedsACodeBugInTheCodeOnlyAndASpecOnlyBugInTheSpec() {
        Catalogue.Bug both = Catalogue.parse(TWO_LAYER_BUG, "test").bugs().get(0);
        // the code replayed against the correct spec: the spec's edit is left out
        assertEquals(Set.of(SourceKind.JAVA), Layer.CONFORMANCE.seeded(both).kinds());
        assertEquals(1, Layer.CONFORMANCE.seeded(both).edits().size());
        // every other layer runs with every edit
        assertEquals(both, Layer.SPEC.seeded(both));
        assertEquals(both, Layer.UNIT.seeded(both));
        Catalogue.Bug specOnly = both.onlyIn(Set.of(SourceKind.TLA));
        assertEquals(specOnly, Layer.CONFORMANCE.seeded(specOnly));
    }
}
