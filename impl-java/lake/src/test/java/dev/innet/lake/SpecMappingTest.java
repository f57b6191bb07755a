package dev.innet.lake;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.innet.lake.spec.SpecMapping;
import dev.innet.protocol.spec.TlaNext;
import dev.innet.rack.RackRuns;
import java.nio.file.Files;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The implementation map stays in step with specs/lake/Lake.tla's Next relation. */
class SpecMappingTest {
    static final Set<String> NOT_ACTIONS = Set.of("Client", "Key", "Slot", "Host");

    @Test
    void everyActionOfNextIsMappedAndEveryMappedNameIsAnAction() throws Exception {
        String spec = Files.readString(RackRuns.root().resolve("specs/lake/Lake.tla"));
        assertEquals(TlaNext.actions(spec, NOT_ACTIONS), SpecMapping.ACTIONS.keySet());
    }

    @Test
    void theCheckNoticesAnActionMissingFromTheMap() {
        String spec = "x\nNext ==\n    \\/ \\E s \\in Slot : Evict(s)\n    \\/ Reset \\/ SomethingNew\n\nrest";
        assertEquals(Set.of("Evict", "Reset", "SomethingNew"), TlaNext.actions(spec, NOT_ACTIONS));
    }
}
