package dev.innet.visibility;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.innet.rack.RackRuns;
import dev.innet.visibility.spec.SpecMapping;
import java.nio.file.Files;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The implementation map stays in step with the spec's Next relation (and its Deliver disjunction). */
class SpecMappingTest {
    /** Capitalised names in the body of {@code name ==} up to the next blank line. */
    static Set<String> namesIn(String spec, String name) {
        Matcher def = Pattern.compile("\n" + name + "(\\([a-z]+\\))? ==").matcher(spec);
        assertTrue(def.find(), "the spec has no " + name);
        int end = spec.indexOf("\n\n", def.end());
        String body = spec.substring(def.end(), end < 0 ? spec.length() : end);
        Set<String> names = new TreeSet<>();
        Matcher m = Pattern.compile("\\b([A-Z][A-Za-z]+)\\b").matcher(body);
        while (m.find()) {
            names.add(m.group(1));
        }
        names.removeAll(Set.of("Writes", "Keys", "Reads", "Slots"));
        return names;
    }

    static Set<String> actions(String spec) {
        Set<String> all = new TreeSet<>(namesIn(spec, "Next"));
        all.addAll(namesIn(spec, "Deliver"));
        return all;
    }

    @Test
    void everyActionOfNextIsMappedAndEveryMappedNameIsAnAction() throws Exception {
        String spec = Files.readString(RackRuns.root().resolve("specs/visibility/Visibility.tla"));
        Set<String> actions = actions(spec);
        assertTrue(actions.size() > 20, "parsed too few actions: " + actions);
        assertEquals(actions, SpecMapping.ACTIONS.keySet());
    }

    @Test
    void theCheckNoticesAnActionMissingFromTheMap() {
        String spec = "x\nNext ==\n    \\/ MdnCrash \\/ SomethingNew\n\nDeliver(m) ==\n    \\/ DnWrite(m)\n\nrest";
        assertEquals(Set.of("MdnCrash", "SomethingNew", "DnWrite"), actions(spec));
    }
}
