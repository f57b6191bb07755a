package dev.innet.sim.simulated;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.innet.sim.Node;
import dev.innet.sim.NodeContext;
import dev.innet.sim.RecordedTraceEvent;
import dev.innet.sim.TraceEvent;
import dev.innet.sim.testnodes.StaticForwardingSwitch;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Protocol trace events: recorded in run order with time, host and incarnation, written as NDJSON. */
class TraceEventRecordingTest {

    /** Emits one event per timer, two timers 10 us apart. */
    private static Node tracingNode() {
        return new Node() {
            private NodeContext ctx;
            private int fired;

            @Override
            public void onStart(NodeContext context) {
                this.ctx = context;
                ctx.timers().schedule(10_000);
                ctx.timers().schedule(20_000);
            }

            @Override
            public void onPacket(byte[] frame) {}

            @Override
            public void onTimer(long timerId) {
                ctx.trace(TraceEvent.of("tick").with("n", ++fired).with("who", "a\"b").with("last", fired == 2));
            }
        };
    }

    private static Simulation run(boolean record) {
        Simulation sim = Simulation.builder(5).out(null).recordTraceEvents(record).build();
        SimSwitch tor = sim.addSwitch("tor", () -> StaticForwardingSwitch.hostOnSamePort(1, 2));
        sim.addHost(1, TraceEventRecordingTest::tracingNode, tor, 1);
        sim.addHost(2, TraceEventRecordingTest::tracingNode, tor, 2);
        sim.runUntil(1_000_000);
        return sim;
    }

    @Test
    void eventsAreRecordedInRunOrderWithTimeAndHost(@TempDir Path dir) throws Exception {
        Simulation sim = run(true);
        List<RecordedTraceEvent> events = sim.traceEvents();
        assertEquals(4, events.size());
        assertEquals(List.of(10_000L, 10_000L, 20_000L, 20_000L), events.stream().map(RecordedTraceEvent::timeNanos).toList());
        assertEquals(List.of(1, 2, 1, 2), events.stream().map(RecordedTraceEvent::host).toList());
        Path out = dir.resolve("sub/run.ndjson");
        sim.writeTraceEvents(out);
        List<String> lines = Files.readAllLines(out);
        assertEquals("{\"time\":20000,\"host\":2,\"incarnation\":0,\"event\":\"tick\",\"n\":2,\"who\":\"a\\\"b\",\"last\":true}",
                lines.get(3));
    }

    @Test
    void withoutRecordingNothingIsKeptAndWritingIsRefused(@TempDir Path dir) {
        Simulation sim = run(false);
        assertTrue(sim.traceEvents().isEmpty());
        assertThrows(IllegalStateException.class, () -> sim.writeTraceEvents(dir.resolve("x.ndjson")));
    }

    @Test
    void reservedFieldNamesAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> TraceEvent.of("x").with("time", 1));
        assertThrows(IllegalArgumentException.class, () -> TraceEvent.of("x").with("a", 1).with("a", 2));
    }
}
