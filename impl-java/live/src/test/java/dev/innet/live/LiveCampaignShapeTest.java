package dev.innet.live;

import static dev.innet.live.LiveValidationRacks.down;
import static dev.innet.live.LiveValidationRacks.uniqueName;
import static dev.innet.live.LiveValidationRacks.validate;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.innet.cli.Cli;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code rack up --campaign-shape} (what {@code ./innet jepsen --campaign-shape} and the mutation gate's Jepsen layer
 * use): a live visibility rack whose every host takes the campaigns' colliding hasher (8 switch slots, 4
 * fingerprints). The clients' operations name only those slots and fingerprints, distinct keys share a slot, the
 * plan records the shape, and a client restarted by {@code rack restart} takes it from there. The run up to that
 * restart (the spec has no client restarts), switch steps included, is accepted by the spec: the switch and the
 * nodes agree on the shape. Skipped (not passed) where the machine forbids network namespaces.
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
            // validated before the restart below: VisibilityTrace.tla covers restarts of servers, not of clients
            LiveValidationRacks.Validation v = validate(name);
            assertEquals(RackMain.Validate.EXIT_ACCEPTED, v.exit(), v.out());
            // a client killed and brought back by rack restart (what the campaigns' health checks run) takes the
            // shape from the plan: its operations after the restart must name the campaign's slots as well
            int restarted = layout.clients().get(0);
            long before = clientOps(layout, restarted);
            killAndRestartByCommand(name, layout, "client-h" + restarted);
            RackRun.run(layout, 200, 12, 120_000, System.out);
            assertTrue(clientOps(layout, restarted) > before, "the restarted client ran no operation");
            Map<String, Long> slotOfKey = new HashMap<>();
            Set<Long> slots = new HashSet<>();
            Set<Long> fingerprints = new HashSet<>();
            for (int client : layout.clients()) {
                for (String line : Files.readAllLines(layout.traceEventsOf(client))) {
                    Matcher m = CLIENT_OP.matcher(line);
                    if (m.find()) {
                        slotOfKey.put(m.group(1), Long.parseLong(m.group(2)));
                        slots.add(Long.parseLong(m.group(2)));
                        fingerprints.add(Long.parseLong(m.group(3)));
                    }
                }
            }
            assertTrue(slotOfKey.size() >= 8, "the clients' operations named " + slotOfKey.size() + " keys");
            assertTrue(slots.stream().allMatch(s -> s < 8), "a slot outside the campaign's 8: " + slots);
            assertTrue(fingerprints.stream().allMatch(f -> f < 4), "a fingerprint outside the campaign's 4: " + fingerprints);
            assertTrue(new HashSet<>(slotOfKey.values()).size() < slotOfKey.size(), "no two keys share a slot: " + slotOfKey);
        } finally {
            down(name);
        }
    }

    private static long clientOps(RackLayout layout, int client) throws java.io.IOException {
        return Files.readAllLines(layout.traceEventsOf(client)).stream().filter(l -> CLIENT_OP.matcher(l).find()).count();
    }

    /** SIGKILL, then {@code ./innet rack restart --process NAME}, which knows the rack only from its plan. */
    private static void killAndRestartByCommand(String name, RackLayout layout, String process) throws Exception {
        RackPlan.Process p = LiveValidationRacks.current(layout, process);
        ProcessHandle handle = ProcessHandle.of(p.pid()).orElseThrow();
        handle.destroyForcibly();
        handle.onExit().get(10, TimeUnit.SECONDS);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        int exit = Cli.run("rack", new RackMain(out, out), new String[] {"--root", LiveValidationRacks.root().toString(),
                "restart", "--name", name, "--process", process}, out, out);
        assertEquals(RackMain.EXIT_OK, exit, bytes.toString(StandardCharsets.UTF_8));
    }
}
