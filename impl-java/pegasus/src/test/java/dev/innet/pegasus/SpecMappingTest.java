package dev.innet.pegasus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.innet.pegasus.spec.SpecMapping;
import dev.innet.protocol.spec.TlaNext;
import dev.innet.rack.RackRuns;
import java.nio.file.Files;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The implementation map stays in step with Pegasus.tla's Next relation. */
class SpecMappingTest {
    /** The action names that {@code Next} in Pegasus.tla disjoins (its quantifier domains left out). */
    static Set<String> actionsOfNext(String spec) {
        return TlaNext.actions(spec, Set.of("Keys", "RIds", "WIds"));
    }

    @Test
    void everyActionOfNextIsMappedAndEveryMappedNameIsAnAction() throws Exception {
        String spec = Files.readString(RackRuns.root().resolve("specs/pegasus/Pegasus.tla"));
        Set<String> actions = actionsOfNext(spec);
        assertTrue(actions.size() >= 14, "parsed too few actions: " + actions);
        assertEquals(actions, SpecMapping.ACTIONS.keySet());
    }

    @Test
    void theCheckNoticesAnActionMissingFromTheMap() {
        String spec = "x\nNext ==\n  \\/ \\E k \\in Keys : AddKey(k) \\/ SomethingNew(k)\n\nrest";
        assertEquals(Set.of("AddKey", "SomethingNew"), actionsOfNext(spec));
    }
}
