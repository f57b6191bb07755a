package dev.innet.farreach;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.innet.farreach.spec.SpecMapping;
import dev.innet.protocol.spec.TlaNext;
import dev.innet.rack.RackRuns;
import java.nio.file.Files;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The implementation map stays in step with the spec's Next relation. */
class SpecMappingTest {
    /** The action names that {@code Next} in specs/farreach/FarReach.tla disjoins. */
    static Set<String> actionsOfNext(String spec) {
        return TlaNext.actions(spec, Set.of("BOOLEAN", "Client", "Key"));
    }

    @Test
    void everyActionOfNextIsMappedAndEveryMappedNameIsAnAction() throws Exception {
        String spec = Files.readString(RackRuns.root().resolve("specs/farreach/FarReach.tla"));
        Set<String> actions = actionsOfNext(spec);
        assertTrue(actions.size() > 20, "parsed too few actions: " + actions);
        assertEquals(actions, SpecMapping.ACTIONS.keySet());
    }

    @Test
    void theCheckNoticesAnActionMissingFromTheMap() {
        String spec = "x\nNext ==\n    \\/ Recover \\/ SomethingNew\n\nrest";
        assertEquals(Set.of("Recover", "SomethingNew"), actionsOfNext(spec));
    }
}
