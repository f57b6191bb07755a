package dev.innet.p4runtime;

import static dev.innet.p4runtime.TestSwitch.bytes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import io.grpc.StatusRuntimeException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.p4.v1.Action;
import org.p4.v1.Entity;
import org.p4.v1.FieldMatch;
import org.p4.v1.TableAction;
import org.p4.v1.TableEntry;
import org.p4.v1.Update;
import org.p4.v1.WriteRequest;

/**
 * Random Write batches against the fwd (exact) and acl (ternary + lpm, priorities) tables of the test
 * program, each update either well-formed or broken in one known way. A model of both tables predicts
 * every outcome: a batch with a broken update must fail and change nothing; otherwise INSERT succeeds
 * exactly when the entry is absent, MODIFY and DELETE exactly when it is present, updates of a
 * CONTINUE_ON_ERROR batch apply one by one, and a ROLLBACK_ON_ERROR batch with any failure changes
 * nothing. After every batch the switch's entries (read through P4Runtime and through p4sim's own
 * control API) must equal the model's.
 */
class P4RuntimeFuzzTest {
    private static final int BATCHES = 250;

    /** One way to break an update; each must make the server reject it. */
    enum Breakage { NONE, UNKNOWN_TABLE, TOO_WIDE, MISSING_EXACT, UNKNOWN_ACTION, UNKNOWN_PARAM, MISSING_PARAM, EMPTY_VALUE,
        PRIORITY_ON_EXACT, NO_PRIORITY, DUPLICATE_FIELD, BITS_OUTSIDE_MASK, BITS_PAST_PREFIX, WRONG_KIND, NO_UPDATE_TYPE }

    private record Generated(Update update, Breakage breakage, String key, Entity entity) { }

    private TestSwitch ts;
    private Random rnd;

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3})
    void randomWritesKeepTheSwitchConsistent(long seed) throws Exception {
        rnd = new Random(seed);
        Map<String, Entity> model = new HashMap<>(); // key -> entry as the server should return it
        int rejectedBatches = 0;
        int appliedUpdates = 0;
        try (TestSwitch s = new TestSwitch(); var client = s.new Client()) {
            ts = s;
            client.arbitrate(1);
            for (int b = 0; b < BATCHES; b++) {
                int n = 1 + rnd.nextInt(4);
                List<Generated> batch = new ArrayList<>();
                for (int i = 0; i < n; i++) {
                    batch.add(generate());
                }
                boolean rollback = rnd.nextBoolean();
                WriteRequest.Builder req = ts.write(1, batch.stream().map(Generated::update).toArray(Update[]::new))
                        .setAtomicity(rollback ? WriteRequest.Atomicity.ROLLBACK_ON_ERROR : WriteRequest.Atomicity.CONTINUE_ON_ERROR);
                // the model's prediction
                boolean malformed = batch.stream().anyMatch(g -> g.breakage != Breakage.NONE);
                Map<String, Entity> after = new HashMap<>(model);
                List<Boolean> ok = new ArrayList<>();
                for (Generated g : batch) {
                    boolean applies = !malformed && applies(g, after);
                    ok.add(applies);
                    if (applies) {
                        switch (g.update.getType()) {
                            case INSERT, MODIFY -> after.put(g.key, g.entity);
                            case DELETE -> after.remove(g.key);
                            default -> throw new AssertionError();
                        }
                    }
                }
                boolean anyFails = ok.contains(false);
                if (rollback && anyFails) {
                    after = model;
                }
                String what = "seed " + seed + " batch " + b + " " + batch.stream().map(g -> g.update.getType() + "/" + g.breakage).toList();
                try {
                    ts.stub.write(req.build());
                    assertTrue(!anyFails, what + ": accepted, but the model expected a failure");
                } catch (StatusRuntimeException e) {
                    assertTrue(anyFails, what + ": rejected, but the model expected success: " + e.getStatus());
                    List<org.p4.v1.Error> details = TestSwitch.details(e);
                    assertEquals(batch.size(), details.size(), what);
                    for (int i = 0; i < batch.size(); i++) {
                        int code = details.get(i).getCanonicalCode();
                        if (batch.get(i).breakage != Breakage.NONE || (!malformed && !ok.get(i))) {
                            assertNotEquals(0, code, what + ": update " + i + " should have failed");
                            assertTrue(!details.get(i).getMessage().isBlank(), what + ": update " + i + " error without a message");
                        } else if (!rollback && !malformed) {
                            assertEquals(0, code, what + ": update " + i + " should have been applied");
                        }
                    }
                    rejectedBatches++;
                }
                model = after;
                appliedUpdates += ok.stream().filter(x -> x).count();
                assertEquals(Set.copyOf(model.values()), Set.copyOf(readAll()), what + ": the switch's entries differ from the model");
                synchronized (ts.sw) {
                    int inSwitch = ts.sw.control().readEntries("MyIngress.fwd").size() + ts.sw.control().readEntries("MyIngress.acl").size();
                    assertEquals(model.size(), inSwitch, what);
                }
            }
        }
        // the random mix exercised both outcomes
        assertTrue(rejectedBatches > 20 && appliedUpdates > 50, "rejected " + rejectedBatches + ", applied " + appliedUpdates);
    }

    private List<Entity> readAll() {
        List<Entity> out = new ArrayList<>(ts.read(Entity.newBuilder().setTableEntry(TableEntry.newBuilder().setTableId(ts.tableId("fwd"))).build()));
        out.addAll(ts.read(Entity.newBuilder().setTableEntry(TableEntry.newBuilder().setTableId(ts.tableId("acl"))).build()));
        return out;
    }

    private static boolean applies(Generated g, Map<String, Entity> state) {
        boolean present = state.containsKey(g.key);
        return g.update.getType() == Update.Type.INSERT ? !present : present;
    }

    private Generated generate() {
        Update.Type type = List.of(Update.Type.INSERT, Update.Type.INSERT, Update.Type.MODIFY, Update.Type.DELETE).get(rnd.nextInt(4));
        Breakage breakage = rnd.nextInt(10) < 6 ? Breakage.NONE : Breakage.values()[1 + rnd.nextInt(Breakage.values().length - 1)];
        boolean fwd = rnd.nextBoolean();
        // breakages that only make sense for one table
        if (breakage == Breakage.PRIORITY_ON_EXACT || breakage == Breakage.MISSING_EXACT) {
            fwd = true;
        }
        if (breakage == Breakage.NO_PRIORITY || breakage == Breakage.BITS_OUTSIDE_MASK || breakage == Breakage.BITS_PAST_PREFIX) {
            fwd = false;
        }
        TableEntry.Builder te = TableEntry.newBuilder();
        String key;
        if (fwd) {
            long dst = rnd.nextInt(12);
            key = "fwd/" + dst;
            te.setTableId(ts.tableId("fwd")).addMatch(FieldMatch.newBuilder().setFieldId(1).setExact(FieldMatch.Exact.newBuilder().setValue(bytes(dst))));
        } else {
            long type16 = rnd.nextBoolean() ? 0x0800 : 0x0806;
            long mask = rnd.nextBoolean() ? 0xffff : 0xff00;
            int prefix = rnd.nextBoolean() ? 48 : 40;
            long src = prefix == 48 ? 0xbb : 0;
            int priority = 1 + rnd.nextInt(3);
            key = "acl/" + (type16 & mask) + "/" + mask + "/" + src + "/" + prefix + "/" + priority;
            te.setTableId(ts.tableId("acl")).setPriority(priority)
                    .addMatch(FieldMatch.newBuilder().setFieldId(1).setTernary(FieldMatch.Ternary.newBuilder().setValue(bytes(type16 & mask)).setMask(bytes(mask))))
                    .addMatch(FieldMatch.newBuilder().setFieldId(2).setLpm(FieldMatch.LPM.newBuilder().setValue(bytes(src)).setPrefixLen(prefix)));
        }
        String action = List.of("set_port", "drop").get(rnd.nextInt(2));
        Action.Builder a = Action.newBuilder().setActionId(ts.actionId(action));
        if (action.equals("set_port")) {
            a.addParams(Action.Param.newBuilder().setParamId(1).setValue(bytes(rnd.nextInt(8))));
        }
        switch (breakage) {
            case UNKNOWN_TABLE -> te.setTableId(0x02abcdef);
            case TOO_WIDE -> te.setMatch(0, te.getMatch(0).toBuilder().clearFieldMatchType().setExact(FieldMatch.Exact.newBuilder()
                    .setValue(ByteString.copyFrom(new byte[] {1, 0, 0, 0, 0, 0, 0})))); // 49 bits (wider than either key)
            case MISSING_EXACT -> te.clearMatch();
            case UNKNOWN_ACTION -> a.setActionId(0x01abcdef);
            case UNKNOWN_PARAM -> a.clearParams().setActionId(ts.actionId("set_port"))
                    .addParams(Action.Param.newBuilder().setParamId(1).setValue(bytes(1))).addParams(Action.Param.newBuilder().setParamId(9).setValue(bytes(1)));
            case MISSING_PARAM -> a.clearParams().setActionId(ts.actionId("set_port"));
            case EMPTY_VALUE -> te.setMatch(0, te.getMatch(0).toBuilder().clearFieldMatchType().setExact(FieldMatch.Exact.newBuilder().setValue(ByteString.EMPTY)));
            case PRIORITY_ON_EXACT -> te.setPriority(5);
            case NO_PRIORITY -> te.setPriority(0);
            case DUPLICATE_FIELD -> te.addMatch(te.getMatch(0));
            case BITS_OUTSIDE_MASK -> te.setMatch(0, FieldMatch.newBuilder().setFieldId(1).setTernary(FieldMatch.Ternary.newBuilder()
                    .setValue(bytes(0x08ff)).setMask(bytes(0xff00))));
            case BITS_PAST_PREFIX -> te.setMatch(1, FieldMatch.newBuilder().setFieldId(2).setLpm(FieldMatch.LPM.newBuilder()
                    .setValue(bytes(0xbb)).setPrefixLen(40)));
            case WRONG_KIND -> te.setMatch(0, te.getMatch(0).toBuilder().clearFieldMatchType().setRange(FieldMatch.Range.newBuilder()
                    .setLow(bytes(1)).setHigh(bytes(2))));
            default -> { }
        }
        // DELETE ignores the action; only a broken update needs one to be wrong in a DELETE-visible way
        if (type != Update.Type.DELETE || breakage != Breakage.NONE) {
            te.setAction(TableAction.newBuilder().setAction(a));
        }
        if (type == Update.Type.DELETE && Set.of(Breakage.UNKNOWN_ACTION, Breakage.UNKNOWN_PARAM, Breakage.MISSING_PARAM).contains(breakage)) {
            type = Update.Type.INSERT; // a DELETE does not look at the action, so the breakage must be in an INSERT
        }
        Entity clean = Entity.newBuilder().setTableEntry(te.clone().clearAction().setAction(TableAction.newBuilder().setAction(a))).build();
        Update.Builder u = Update.newBuilder().setType(type).setEntity(Entity.newBuilder().setTableEntry(te));
        if (breakage == Breakage.NO_UPDATE_TYPE) {
            u.setType(Update.Type.UNSPECIFIED);
        }
        return new Generated(u.build(), breakage, key, clean);
    }

}
