package dev.innet.live;

import static dev.innet.live.LiveValidationRacks.down;
import static dev.innet.live.LiveValidationRacks.uniqueName;
import static dev.innet.live.LiveValidationRacks.validate;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code rack up --campaign-shape} (what {@code ./innet jepsen --campaign-shape} and the mutation gate's Jepsen layer
 * use): a live visibility rack whose every host takes the campaigns' colliding hasher (8 switch slots, 4
 * fingerprints). The clients' operations name only those slots and fingerprints, distinct keys share a slot, the
 * plan records the shape for restarts, and the run, switch steps included, is still accepted by the spec: the
 * switch and the nodes agree on the shape. Skipped (not passed) where the machine forbids network namespaces.
 */
class LiveCampaignShapeTest {
    private static final Pattern CLIENT_OP = Pattern.compile("\"event\":\"visClientOp\".*\"key\":\"([0-9a-f]+)\",\"slot\":(\\d+),\"fp\":(\\d+)");

    @BeforeAll
    static void requireNamespaces() {
        NetworkNamespaces.assumeAllowed("innet");
    }

    @Test
    void everyHostTakesTheCollidingHasherAndTheRunIsAccepted() throws Exception {
        String name = uniqueName("lcs");
        RackLayout layout = LiveValidationRacks.upInCampaignShape(name, "visibility", 3, 2);
        try {
            assertEquals("yes", RackPlan.read(layout.planFile()).settingOr("campaign-shape", ""), "recorded for restarts");
            RackRun.run(layout, 200, 12, 120_000, System.out);
            Map<String, Long> slotOfKey = new HashMap<>();
            Set<Long> fingerprints = new HashSet<>();
            for (int client : layout.clients()) {
                for (String line : Files.readAllLines(layout.traceEventsOf(client))) {
                    Matcher m = CLIENT_OP.matcher(line);
                    if (m.find()) {
                        slotOfKey.put(m.group(1), Long.parseLong(m.group(2)));
                        fingerprints.add(Long.parseLong(m.group(3)));
                    }
                }
            }
            assertTrue(slotOfKey.size() >= 8, "the clients' operations named " + slotOfKey.size() + " keys");
            assertTrue(slotOfKey.values().stream().allMatch(s -> s < 8), "a slot outside the campaign's 8: " + slotOfKey);
            assertTrue(fingerprints.stream().allMatch(f -> f < 4), "a fingerprint outside the campaign's 4: " + fingerprints);
            assertTrue(new HashSet<>(slotOfKey.values()).size() < slotOfKey.size(), "no two keys share a slot: " + slotOfKey);
            LiveValidationRacks.Validation v = validate(name);
            assertEquals(RackMain.Validate.EXIT_ACCEPTED, v.exit(), v.out());
        } finally {
            down(name);
        }
    }
}
