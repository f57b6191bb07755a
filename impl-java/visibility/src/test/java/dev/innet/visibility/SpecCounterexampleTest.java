package dev.innet.visibility;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import dev.innet.rack.RackRuns;
import dev.innet.sim.Node;
import dev.innet.visibility.ScriptedRack.Flight;
import dev.innet.visibility.ScriptedRack.Outcome;
import dev.innet.visibility.controller.VisibilitySwitchOs;
import dev.innet.visibility.datanode.DataNode;
import dev.innet.visibility.wire.VisOp;
import dev.innet.wire.InnetMessage;
import java.nio.file.Path;
import java.util.function.Function;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/**
 * The counterexamples TLC found for three buggy variants of specs/visibility (docs/specs/visibility.md,
 * "Buggy variants") replayed on the implementation through {@link ScriptedRack}: the same schedule runs
 * on the real implementation, which stays linearizable, and on the seeded bug, which does not. The
 * random campaigns of SeededBugTest rarely produce these schedules (a reply late by a whole switch
 * crash, a request duplicated across another write), so they are scripted here.
 *
 * <p>The check: two reads with no write between them, after every write completed, must return the same
 * value, the one of the write linearized last (a consequence of linearizability).
 */
class SpecCounterexampleTest {
    static final byte[] KEY = InnetMessage.key("a");
    static final int C1 = 3;
    static final int C2 = 4;
    static final int C3 = 5;

    static Path program() {
        return RackRuns.root().resolve("p4/visibility.p4");
    }

    static Predicate<Flight> writeReplyOf(long reqId, int clientHost) {
        return f -> {
            InnetMessage m = f.message();
            return m != null && f.toSwitch() && f.host() == ScriptedRack.DN && m.op() == VisOp.WRITE_REPLY
                    && m.reqId() == reqId && f.frame()[33] == (byte) clientHost; // destination IP's last byte
        };
    }

    static Outcome put(ScriptedRack rack, int client, String value) {
        Outcome o = new Outcome();
        rack.client(client).put(KEY, value.getBytes(), o::set);
        return o;
    }

    /** An asynchronous update (the switch's clone) on its way to the metadata node. */
    static final Predicate<Flight> ASYNC_UPDATE = f -> !f.toSwitch() && f.host() == ScriptedRack.MDN
            && f.message() != null && f.message().op() == VisOp.META_ASYNC;

    /** A second-phase reply from the metadata node on its way to the switch. */
    static final Predicate<Flight> SECOND_PHASE_REPLY = f -> f.toSwitch() && f.host() == ScriptedRack.MDN
            && f.message() != null && f.message().op() == VisOp.META_UPDATE_REPLY;

    /**
     * Two reads by a third client, the first while asynchronous updates are held back (the window in
     * which the switch entry is what reads see), the second after everything settled.
     */
    static String readTwice(ScriptedRack rack) {
        Outcome first = new Outcome();
        rack.client(C3).get(KEY, first::set);
        rack.run(ASYNC_UPDATE);
        Outcome second = new Outcome();
        rack.runAll();
        rack.client(C3).get(KEY, second::set);
        rack.runAll();
        assertNotNull(first.result, "the first read did not complete");
        assertNotNull(second.result, "the second read did not complete");
        String reads = first.value() + " then " + second.value();
        System.out.println("reads: " + reads);
        return reads;
    }

    /**
     * MCVisibility_MaxTsInstallOnly: three writes on a; w1 installed, w3 falls back (and with the bug
     * does not raise MaxTs), w1 cleared, w3 commits, then w2's late reply (ts 2 > MaxTs 1) is installed.
     */
    static String maxTsSchedule(Path p4) throws Exception {
        ScriptedRack rack = new ScriptedRack(p4, DataNode::new, VisibilitySwitchOs.RESYNC, 3);
        rack.runAll();
        Outcome w1 = put(rack, C1, "v1");
        Outcome w2 = put(rack, C2, "v2");
        Outcome w3 = put(rack, C3, "v3");                            // appended in this order: ts 1, 2, 3
        Predicate<Flight> lateW2 = writeReplyOf(1, C2);
        rack.run(lateW2.or(ASYNC_UPDATE).or(SECOND_PHASE_REPLY));    // w1 installed; w3 falls back
        rack.run(lateW2);                                            // w1 cleared, w3 commits
        rack.run(ASYNC_UPDATE);                                      // w2's late reply (its update held)
        assertNotNull(w1.result);
        assertNotNull(w2.result);
        assertNotNull(w3.result);
        return readTwice(rack);
    }

    /**
     * MCVisibility_ResyncNoMaxTs: w2 (ts 2) installed and committed; switch crash and resync; w1's late
     * reply (ts 1) is installed.
     */
    static String resyncSchedule(VisibilitySwitchOs.ResyncFactory resyncs) throws Exception {
        ScriptedRack rack = new ScriptedRack(program(), DataNode::new, resyncs, 3);
        rack.runAll();
        Outcome w1 = put(rack, C1, "v1");
        Outcome w2 = put(rack, C2, "v2");                            // appended in this order: ts 1, 2
        Predicate<Flight> lateW1 = writeReplyOf(1, C1);
        rack.run(lateW1);                                            // w2 installed, committed, applied, cleared
        Flight late = rack.inFlight.stream().filter(lateW1).findFirst().orElseThrow();
        rack.crashSwitch();                                          // the late reply is still on the data node's side
        rack.inFlight.add(late);
        rack.run(lateW1);                                            // the switch OS resynchronises the new switch
        rack.run(ASYNC_UPDATE);                                      // w1's late reply (its update held)
        assertNotNull(w1.result);
        assertNotNull(w2.result);
        return readTwice(rack);
    }

    /**
     * MCVisibility_Restamp with a second write: w1 committed; its request duplicated; w2 committed; the
     * duplicate reaches the data node, which (with the bug) appends w1's value again at a new timestamp.
     */
    static String restampSchedule(Function<RackRoles, Node> dataNode) throws Exception {
        ScriptedRack rack = new ScriptedRack(program(), dataNode, VisibilitySwitchOs.RESYNC, 3);
        rack.runAll();
        Outcome w1 = put(rack, C1, "v1");
        Flight duplicate = new Flight(C1, true, rack.lastSentBy(C1));
        rack.runAll();
        Outcome w2 = put(rack, C2, "v2");
        rack.runAll();
        rack.inFlight.add(duplicate);                                // the duplicate of w1's request arrives
        rack.runAll();
        assertNotNull(w1.result);
        assertNotNull(w2.result);
        return readTwice(rack);
    }

    @Test
    void maxTsRaisedOnlyByInstallsIsNotLinearizable() throws Exception {
        assertEquals("v3 then v3", maxTsSchedule(program()));
        String buggy = maxTsSchedule(SeededBugs.maxTsInstallOnly());
        assertNotEquals("v3 then v3", buggy, "the seeded bug went unnoticed");
    }

    @Test
    void resyncWithoutMaxTsIsNotLinearizable() throws Exception {
        assertEquals("v2 then v2", resyncSchedule(VisibilitySwitchOs.RESYNC));
        String buggy = resyncSchedule(SeededBugs.ResyncWithoutMaxTs::new);
        assertNotEquals("v2 then v2", buggy, "the seeded bug went unnoticed");
    }

    @Test
    void restampingARetriedWriteIsNotLinearizable() throws Exception {
        assertEquals("v2 then v2", restampSchedule(DataNode::new));
        String buggy = restampSchedule(SeededBugs.RestampDataNode::new);
        assertNotEquals("v2 then v2", buggy, "the seeded bug went unnoticed");
    }
}
