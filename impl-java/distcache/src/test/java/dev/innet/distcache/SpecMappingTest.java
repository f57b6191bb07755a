package dev.innet.distcache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.innet.distcache.spec.SpecMapping;
import dev.innet.rack.RackRuns;
import java.nio.file.Files;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The implementation map stays in step with DistCache.tla's Next relation. */
class SpecMappingTest {
    /** The action names that {@code Next} disjoins (quantifier domains removed). */
    static Set<String> actionsOfNext(String spec) {
        int start = spec.indexOf("\nNext ==");
        assertTrue(start >= 0, "the spec has no Next");
        int end = spec.indexOf("\n\n", start + 1);
        String next = spec.substring(start + "\nNext ==".length(), end < 0 ? spec.length() : end);
        Set<String> names = new TreeSet<>();
        Matcher m = Pattern.compile("\\b([A-Z][A-Za-z]+)\\s*\\(").matcher(next);
        while (m.find()) {
            names.add(m.group(1));
        }
        return names;
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
        String spec = "x\nNext ==\n  \\/ \\E k \\in Keys : AddKey(k) \\/ SomethingNew(k)\n\nrest";
        assertEquals(Set.of("AddKey", "SomethingNew"), actionsOfNext(spec));
    }
}
