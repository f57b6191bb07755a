package dev.innet.farreach.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.innet.kv.FakeContext;
import dev.innet.kv.KvOp;
import dev.innet.kv.KvStatus;
import dev.innet.kv.cache.CacheControlNames;
import dev.innet.kv.cache.CacheControllerConfig;
import dev.innet.kv.cache.CacheRegisters;
import dev.innet.p4sim.P4Sim;
import dev.innet.p4sim.v1model.SwitchConfig;
import dev.innet.rack.RackRuns;
import dev.innet.sim.Clock;
import dev.innet.sim.DurableStore;
import dev.innet.sim.Network;
import dev.innet.sim.NodeContext;
import dev.innet.sim.RandomSource;
import dev.innet.sim.SeededRandom;
import dev.innet.sim.Timers;
import dev.innet.sim.TraceEvent;
import dev.innet.switchapi.SwitchControl;
import dev.innet.switchapi.SwitchHandle;
import dev.innet.wire.InnetMessage;
import dev.innet.wire.InnetPacket;
import java.math.BigInteger;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The eviction's acknowledgement rule (§3.3, the spec's AckMatches): an eviction finishes only on the
 * EVICT_STORE_REPLY carrying its own EVICT_STORE's request id. A reply to an earlier eviction of the same
 * key (duplicated or late on a lossy link) or a reply for another op must leave it waiting, with the
 * record still cached and to-be-evicted. Runs {@link Evict} against p4/farreach.p4 on p4sim.
 */
class EvictAcknowledgementTest {
    private static final int SERVER = 1;
    private static final int CLIENT = 2;
    private static final int CONTROLLER = 254;
    private static final int INDEX = 3;
    private static final byte[] KEY = InnetMessage.key("evicted");

    @TempDir
    Path dir;
    private FakeContext fake;
    private FarReachController controller;
    private SwitchControl control;

    /** FakeContext plus a random source (the controller draws eviction samples). */
    private record ControllerContext(FakeContext fake) implements NodeContext {
        public int hostNumber() { return fake.hostNumber(); }
        public int incarnation() { return fake.incarnation(); }
        public Clock clock() { return fake.clock(); }
        public RandomSource random() { return new SeededRandom(1); }
        public Network network() { return fake.network(); }
        public Timers timers() { return fake.timers(); }
        public DurableStore durable() { return fake.durable(); }
        public void log(String message) {}
        public void trace(TraceEvent event) { fake.trace(event); }
    }

    @BeforeEach
    void start() {
        Path root = RackRuns.root();
        control = P4Sim.compile(root.resolve("p4/farreach.p4"), List.of(root.resolve("p4")))
                .instantiate(SwitchConfig.defaults()).control();
        SwitchHandle handle = new SwitchHandle();
        handle.attach(control);
        CacheControllerConfig config = new CacheControllerConfig(List.of(SERVER, CLIENT, CONTROLLER), List.of(SERVER),
                List.of(CLIENT), 8, 20_000, 200_000, 4_000_000, 8, 64, 3, List.of(), 5_000_000);
        controller = new FarReachController(config, new FarReachSettings(1_000_000, 0), handle, ControllerHooks.NONE);
        fake = new FakeContext(CONTROLLER, dir);
        controller.onStart(new ControllerContext(fake));
        // a valid cached record at INDEX, as an admission leaves it
        CacheRegisters.writeValue(control, INDEX, "value".getBytes());
        control.registerWrite(CacheControlNames.RECORD_SEQ, INDEX, BigInteger.valueOf(7));
        control.addEntry(CacheRegisters.lookupEntry(KEY, INDEX));
        control.registerWrite(CacheControlNames.RECORD_VALID, INDEX, BigInteger.ONE);
    }

    /** Runs the eviction up to sending EVICT_STORE; returns that request. */
    private InnetMessage startEviction(Evict evict) throws Exception {
        fake.sent.clear();
        assertFalse(evict.step(control)); // to-be-evicted
        assertFalse(evict.step(control)); // loaded, EVICT_STORE sent
        assertEquals(1, fake.sent.size());
        InnetMessage store = InnetPacket.decode(fake.sent.getFirst()).message();
        assertEquals(KvOp.EVICT_STORE, store.op());
        assertEquals(7, store.seq());
        return store;
    }

    private static InnetMessage ack(int op, long reqId) {
        return new InnetMessage(op, 0, KvStatus.OK, reqId, KEY, 7, new byte[0], new byte[0]);
    }

    /** {@code reply} does not finish {@code evict}: the record stays cached and to-be-evicted. */
    private void assertIgnored(Evict evict, InnetMessage reply) {
        assertFalse(evict.onReply(reply));
        assertFalse(evict.step(control));
        assertTrue(stillCachedAndEvicting());
    }

    private boolean stillCachedAndEvicting() {
        return CacheRegisters.indexOf(control, KEY) == INDEX
                && control.registerRead(CacheControlNames.RECORD_VALID, INDEX).signum() != 0
                && control.registerRead(FarReachControlNames.RECORD_EVICTING, INDEX).signum() != 0;
    }

    @Test
    void anAcknowledgementOfAnEarlierEvictionDoesNotFinishThisOne() throws Exception {
        InnetMessage earlier = startEviction(new Evict(controller, INDEX, KEY, false));
        Evict evict = new Evict(controller, INDEX, KEY, false); // the key's next eviction (same key, new request)
        InnetMessage store = startEviction(evict);
        assertTrue(store.reqId() != earlier.reqId());

        assertIgnored(evict, ack(KvOp.EVICT_STORE_REPLY, earlier.reqId()));
    }

    @Test
    void anotherOpWithTheSameRequestIdDoesNotFinishIt() throws Exception {
        Evict evict = new Evict(controller, INDEX, KEY, false);
        InnetMessage store = startEviction(evict);
        assertIgnored(evict, ack(KvOp.RECOVER_STORE_REPLY, store.reqId()));
    }

    @Test
    void itsOwnAcknowledgementFinishesItAndRemovesTheRecord() throws Exception {
        Evict evict = new Evict(controller, INDEX, KEY, false);
        InnetMessage store = startEviction(evict);
        assertTrue(evict.onReply(ack(KvOp.EVICT_STORE_REPLY, store.reqId())));
        assertTrue(evict.step(control));
        assertEquals(-1, CacheRegisters.indexOf(control, KEY));
        assertEquals(0, control.registerRead(CacheControlNames.RECORD_VALID, INDEX).signum());
        assertEquals(0, control.registerRead(FarReachControlNames.RECORD_EVICTING, INDEX).signum());
    }
}
