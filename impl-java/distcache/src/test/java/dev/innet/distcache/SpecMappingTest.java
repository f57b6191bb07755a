package dev.innet.distcache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.innet.distcache.spec.SpecMapping;
import dev.innet.protocol.spec.TlaNext;
import dev.innet.rack.RackRuns;
import java.nio.file.Files;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The implementation map stays in step with DistCache.tla's Next relation. */
class SpecMappingTest {
    /** The action names that {@code Next} in DistCache.tla disjoins (its quantifier domains left out). */
    static Set<String> actionsOfNext(String spec) {
        return TlaNext.actions(spec, Set.of("BOOLEAN", "Client", "Key", "Layer", "Node"));
    }

    @Test
    void everyActionOfNextIsMappedAndEveryMappedNameIsAnAction() throws Exception {
        String spec = Files.readString(RackRuns.root().resolve("specs/distcache/DistCache.tla"));
        Set<String> actions = actionsOfNext(spec);
        assertTrue(actions.size() >= 15, "parsed too few actions: " + actions);
        assertEquals(actions, SpecMapping.ACTIONS.keySet());
    }

    @Test
    void theCheckNoticesAnActionMissingFromTheMap() {
        String spec = "x\nNext ==\n  \\/ \\E k \\in Key : AddKey(k) \\/ SomethingNew(k)\n\nrest";
        assertEquals(Set.of("AddKey", "SomethingNew"), actionsOfNext(spec));
    }
}
