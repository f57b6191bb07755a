package dev.innet.p4runtime;

import static dev.innet.p4runtime.TestSwitch.bytes;
import static dev.innet.p4runtime.TestSwitch.update;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.TextFormat;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.p4.config.v1.ActionProfile;
import org.p4.config.v1.MatchField;
import org.p4.config.v1.P4Ids;
import org.p4.config.v1.P4Info;
import org.p4.v1.Action;
import org.p4.v1.ActionProfileGroup;
import org.p4.v1.ActionProfileMember;
import org.p4.v1.Entity;
import org.p4.v1.FieldMatch;
import org.p4.v1.TableAction;
import org.p4.v1.TableEntry;
import org.p4.v1.Update;
import org.p4.v1.ValueSetEntry;
import org.p4.v1.ValueSetMember;
import org.p4.v1.WriteRequest;

/** Action profiles, action selectors and parser value sets over P4Runtime (src/test/resources/p4rt_profiles.p4). */
class P4RuntimeProfilesTest {
    private TestSwitch ts;
    private TestSwitch.Client client;

    @BeforeEach
    void start() throws Exception {
        ts = new TestSwitch("/p4rt_profiles.p4");
        client = ts.new Client();
        client.arbitrate(1);
    }

    @AfterEach
    void stop() throws Exception {
        client.close();
        ts.close();
    }

    private ActionProfile profile(String alias) {
        return ts.p4info.getActionProfilesList().stream().filter(p -> p.getPreamble().getAlias().equals(alias)).findFirst().orElseThrow();
    }

    private int valueSetId(String alias) {
        return ts.p4info.getValueSetsList().stream().filter(v -> v.getPreamble().getAlias().equals(alias)).findFirst().orElseThrow()
                .getPreamble().getId();
    }

    private Action action(String alias, long... args) {
        Action.Builder a = Action.newBuilder().setActionId(ts.actionId(alias));
        for (int i = 0; i < args.length; i++) {
            a.addParams(Action.Param.newBuilder().setParamId(i + 1).setValue(bytes(args[i])));
        }
        return a.build();
    }

    private Entity member(String profile, int id, Action a) {
        return Entity.newBuilder().setActionProfileMember(ActionProfileMember.newBuilder()
                .setActionProfileId(profile(profile).getPreamble().getId()).setMemberId(id).setAction(a)).build();
    }

    private Entity group(String profile, int id, int... members) {
        ActionProfileGroup.Builder g = ActionProfileGroup.newBuilder().setActionProfileId(profile(profile).getPreamble().getId()).setGroupId(id);
        for (int m : members) {
            g.addMembers(ActionProfileGroup.Member.newBuilder().setMemberId(m).setWeight(1));
        }
        return Entity.newBuilder().setActionProfileGroup(g).build();
    }

    private Entity entry(String table, long k, TableAction a) {
        return Entity.newBuilder().setTableEntry(TableEntry.newBuilder().setTableId(ts.tableId(table))
                .addMatch(FieldMatch.newBuilder().setFieldId(1).setExact(FieldMatch.Exact.newBuilder().setValue(bytes(k))))
                .setAction(a)).build();
    }

    private static TableAction toMember(int id) {
        return TableAction.newBuilder().setActionProfileMemberId(id).build();
    }

    private static TableAction toGroup(int id) {
        return TableAction.newBuilder().setActionProfileGroupId(id).build();
    }

    private void write(Update.Type type, Entity... entities) {
        WriteRequest.Builder w = ts.write(1);
        for (Entity e : entities) {
            w.addUpdates(update(type, e));
        }
        ts.stub.write(w.build());
    }

    /** The frame a packet of this type, k and flow leaves as (its port, out byte and path byte). */
    private List<Integer> send(int type, int k, int flow) {
        byte[] frame = HexFormat.of().parseHex(String.format("%04x%02x%04x0000", type, k, flow));
        List<dev.innet.p4sim.v1model.P4Switch.OutPacket> out;
        synchronized (ts.sw) {
            out = ts.sw.process(0, frame);
        }
        assertEquals(1, out.size());
        byte[] f = out.get(0).frame();
        return List.of(out.get(0).port(), f[5] & 0xff, f[6] & 0xff);
    }

    @Test
    void p4InfoDescribesProfilesSelectorsAndValueSetsAsP4cDoes() throws Exception {
        ActionProfile prof = profile("prof_t");
        ActionProfile sel = profile("sel");
        assertEquals("I.prof_t", prof.getPreamble().getName()); // an inline profile takes its table's name
        assertEquals(P4Ids.Prefix.ACTION_PROFILE_VALUE, prof.getPreamble().getId() >>> 24);
        assertEquals(List.of(ts.tableId("prof_t")), prof.getTableIdsList());
        assertEquals(false, prof.getWithSelector());
        assertEquals(4, prof.getSize());
        assertEquals(0, prof.getMaxGroupSize());
        assertEquals(true, sel.getWithSelector());
        assertEquals(64, sel.getSize());
        assertEquals(4, sel.getMaxGroupSize()); // @max_group_size(4)
        assertTrue(sel.hasSumOfWeights());
        Map<String, Integer> impl = Map.of("prof_t", prof.getPreamble().getId(), "sel_t", sel.getPreamble().getId(), "direct_t", 0);
        impl.forEach((t, id) -> assertEquals(id, ts.p4info.getTablesList().stream()
                .filter(x -> x.getPreamble().getAlias().equals(t)).findFirst().orElseThrow().getImplementationId(), t));
        // the selector key is not a match field
        assertEquals(1, ts.p4info.getTablesList().stream().filter(x -> x.getPreamble().getAlias().equals("sel_t")).findFirst()
                .orElseThrow().getMatchFieldsCount());

        var types = ts.p4info.getValueSetsList().stream().filter(v -> v.getPreamble().getName().equals("P.types")).findFirst().orElseThrow();
        var pairs = ts.p4info.getValueSetsList().stream().filter(v -> v.getPreamble().getName().equals("P.pairs")).findFirst().orElseThrow();
        assertEquals(P4Ids.Prefix.VALUE_SET_VALUE, types.getPreamble().getId() >>> 24);
        assertEquals(2, types.getSize());
        assertEquals(List.of(MatchField.newBuilder().setId(1).setBitwidth(16).setMatchType(MatchField.MatchType.EXACT).build()), types.getMatchList());
        assertEquals(4, pairs.getSize());
        assertEquals(List.of("k", "out"), pairs.getMatchList().stream().map(MatchField::getName).toList());

        // ids p4c gives these names (its test outputs action_selector_shared-bmv2 and pvs-bitstring-bmv2)
        IdAllocator ids = new IdAllocator();
        ids.declare(P4Ids.Prefix.ACTION_PROFILE_VALUE, "IngressI.as", null);
        ids.declare(P4Ids.Prefix.VALUE_SET_VALUE, "MyParser.pvs", null);
        var assigned = ids.assign();
        assertEquals(291652621, assigned.get(P4Ids.Prefix.ACTION_PROFILE_VALUE).get("IngressI.as"));
        assertEquals(56033750, assigned.get(P4Ids.Prefix.VALUE_SET_VALUE).get("MyParser.pvs"));

        P4Info.Builder parsed = P4Info.newBuilder();
        TextFormat.merge(TextFormat.printer().printToString(ts.p4info), parsed);
        assertEquals(ts.p4info, parsed.build());
    }

    @Test
    void membersGroupsAndIndirectEntriesRoundTripAndForward() {
        write(Update.Type.INSERT, member("prof_t", 1, action("set_out", 7)),
                member("sel", 20, action("set_port", 1, 2)), member("sel", 21, action("set_port", 2, 3)));
        write(Update.Type.INSERT, group("sel", 7, 20, 21));
        write(Update.Type.INSERT, entry("prof_t", 1, toMember(1)), entry("sel_t", 1, toGroup(7)));

        assertEquals(3, ts.read(Entity.newBuilder().setActionProfileMember(ActionProfileMember.getDefaultInstance()).build()).size());
        assertEquals(List.of(member("prof_t", 1, action("set_out", 7))),
                ts.read(member("prof_t", 1, Action.getDefaultInstance()).toBuilder()
                        .setActionProfileMember(ActionProfileMember.newBuilder().setActionProfileId(profile("prof_t").getPreamble().getId())).build()));
        assertEquals(List.of(group("sel", 7, 20, 21)), ts.read(Entity.newBuilder().setActionProfileGroup(ActionProfileGroup.getDefaultInstance()).build()));
        assertEquals(List.of(entry("prof_t", 1, toMember(1))), ts.read(Entity.newBuilder().setTableEntry(TableEntry.newBuilder().setTableId(ts.tableId("prof_t"))).build()));
        assertEquals(List.of(entry("sel_t", 1, toGroup(7))), ts.read(Entity.newBuilder().setTableEntry(TableEntry.newBuilder().setTableId(ts.tableId("sel_t"))).build()));

        // the group picks member 20 or 21 by the flow's hash; every flow takes one of them, and both are used
        Set<Integer> ports = new java.util.HashSet<>();
        for (int flow = 0; flow < 32; flow++) {
            List<Integer> out = send(0, 1, flow);
            assertTrue(out.get(0) == 2 && out.get(1) == 1 || out.get(0) == 3 && out.get(1) == 2, out.toString());
            ports.add(out.get(0));
        }
        assertEquals(Set.of(2, 3), ports);

        // a group of one member, a modified member, then the indirect entry moved to a member of the selector
        write(Update.Type.MODIFY, group("sel", 7, 21), member("sel", 21, action("set_port", 9, 4)));
        assertEquals(List.of(4, 9, 0), send(0, 1, 5));
        write(Update.Type.MODIFY, entry("sel_t", 1, toMember(20)));
        assertEquals(List.of(2, 1, 0), send(0, 1, 5));
        assertEquals(List.of(entry("sel_t", 1, toMember(20))), ts.read(Entity.newBuilder().setTableEntry(TableEntry.newBuilder().setTableId(ts.tableId("sel_t"))).build()));

        // the default entry of an indirect table can run a member
        write(Update.Type.MODIFY, Entity.newBuilder().setTableEntry(TableEntry.newBuilder().setTableId(ts.tableId("prof_t"))
                .setIsDefaultAction(true).setAction(toMember(1))).build());
        assertEquals(7, send(0, 2, 0).get(1));
        assertEquals(toMember(1), ts.read(Entity.newBuilder().setTableEntry(TableEntry.newBuilder().setTableId(ts.tableId("prof_t"))
                .setIsDefaultAction(true)).build()).get(0).getTableEntry().getAction());
        write(Update.Type.MODIFY, Entity.newBuilder().setTableEntry(TableEntry.newBuilder().setTableId(ts.tableId("prof_t")).setIsDefaultAction(true)).build());
        assertEquals(0, send(0, 2, 0).get(1));

        // everything deleted in dependency order leaves nothing behind
        write(Update.Type.DELETE, entry("prof_t", 1, TableAction.getDefaultInstance()), entry("sel_t", 1, TableAction.getDefaultInstance()));
        write(Update.Type.DELETE, group("sel", 7));
        write(Update.Type.DELETE, member("prof_t", 1, Action.getDefaultInstance()), member("sel", 20, Action.getDefaultInstance()),
                member("sel", 21, Action.getDefaultInstance()));
        assertTrue(ts.read(Entity.newBuilder().setActionProfileMember(ActionProfileMember.getDefaultInstance()).build()).isEmpty());
        assertTrue(ts.read(Entity.newBuilder().setActionProfileGroup(ActionProfileGroup.getDefaultInstance()).build()).isEmpty());
    }

    @Test
    void badProfileWritesGetClearStatusesAndChangeNothing() throws Exception {
        write(Update.Type.INSERT, member("prof_t", 1, action("set_out", 7)), member("sel", 20, action("set_port", 1, 2)));
        write(Update.Type.INSERT, group("sel", 7, 20));
        write(Update.Type.INSERT, entry("sel_t", 1, toGroup(7)));
        Entity weighted = Entity.newBuilder().setActionProfileGroup(group("sel", 8, 20).getActionProfileGroup().toBuilder()
                .setMembers(0, ActionProfileGroup.Member.newBuilder().setMemberId(20).setWeight(3))).build();
        Entity unknownProfile = Entity.newBuilder().setActionProfileMember(member("prof_t", 2, action("set_out", 1))
                .getActionProfileMember().toBuilder().setActionProfileId(0x11ffffff)).build();
        record Bad(String what, Update.Type type, Entity entity, Status.Code code, String message) { }
        List<Bad> bad = List.of(
                new Bad("an entry running an unknown member", Update.Type.INSERT, entry("prof_t", 2, toMember(99)), Status.Code.NOT_FOUND, "member 99 does not exist"),
                new Bad("an entry running an unknown group", Update.Type.INSERT, entry("sel_t", 2, toGroup(99)), Status.Code.NOT_FOUND, "group 99 does not exist"),
                new Bad("a group of a missing member", Update.Type.INSERT, group("sel", 8, 20, 98), Status.Code.NOT_FOUND, "member 98 does not exist"),
                new Bad("a direct action on an indirect table", Update.Type.INSERT, entry("prof_t", 2, TableAction.newBuilder().setAction(action("set_out", 1)).build()),
                        Status.Code.INVALID_ARGUMENT, "has an action profile"),
                new Bad("a member id on a direct table", Update.Type.INSERT, entry("direct_t", 2, toMember(1)), Status.Code.INVALID_ARGUMENT, "has no action profile"),
                new Bad("a group on a profile without selector", Update.Type.INSERT, entry("prof_t", 2, toGroup(7)), Status.Code.INVALID_ARGUMENT, "has no selector"),
                new Bad("a group in a profile without selector", Update.Type.INSERT, group("prof_t", 8, 1), Status.Code.INVALID_ARGUMENT, "without a selector"),
                new Bad("an unknown action profile", Update.Type.INSERT, unknownProfile, Status.Code.NOT_FOUND, "no action profile with id"),
                new Bad("member id 0", Update.Type.INSERT, member("prof_t", 0, action("set_out", 1)), Status.Code.INVALID_ARGUMENT, "reserved"),
                new Bad("a member action of another table", Update.Type.INSERT, member("prof_t", 2, action("set_port", 1, 1)), Status.Code.INVALID_ARGUMENT, "not one of the table's actions"),
                new Bad("a member inserted twice", Update.Type.INSERT, member("prof_t", 1, action("set_out", 1)), Status.Code.ALREADY_EXISTS, "already exists"),
                new Bad("a missing member modified", Update.Type.MODIFY, member("prof_t", 5, action("set_out", 1)), Status.Code.NOT_FOUND, "does not exist"),
                new Bad("a member still in a group", Update.Type.DELETE, member("sel", 20, Action.getDefaultInstance()), Status.Code.FAILED_PRECONDITION, "still used by group 7"),
                new Bad("a group still used by an entry", Update.Type.DELETE, group("sel", 7), Status.Code.FAILED_PRECONDITION, "still used by an entry of table I.sel_t"),
                new Bad("a weighted member", Update.Type.INSERT, weighted, Status.Code.UNIMPLEMENTED, "weight 3"),
                new Bad("a group over max_group_size", Update.Type.INSERT, group("sel", 8, 20, 21, 22, 23, 24), Status.Code.RESOURCE_EXHAUSTED, "at most 4"),
                new Bad("a one-shot action set", Update.Type.INSERT, entry("sel_t", 2, TableAction.newBuilder()
                        .setActionProfileActionSet(org.p4.v1.ActionProfileActionSet.getDefaultInstance()).build()), Status.Code.UNIMPLEMENTED, "one-shot"));
        for (Bad b : bad) {
            // after a good member insert in the same atomic batch: that one is rolled back too
            var req = ts.write(1, update(Update.Type.INSERT, member("prof_t", 3, action("set_out", 3))), update(b.type, b.entity))
                    .setAtomicity(WriteRequest.Atomicity.ROLLBACK_ON_ERROR);
            var e = assertThrows(StatusRuntimeException.class, () -> ts.stub.write(req.build()), b.what);
            org.p4.v1.Error err = TestSwitch.details(e).getLast();
            assertEquals(b.code.value(), err.getCanonicalCode(), b.what + ": " + err);
            assertTrue(err.getMessage().contains(b.message), b.what + ": " + err.getMessage());
            assertEquals(2, ts.read(Entity.newBuilder().setActionProfileMember(ActionProfileMember.getDefaultInstance()).build()).size(), b.what);
            assertEquals(List.of(group("sel", 7, 20)), ts.read(Entity.newBuilder().setActionProfileGroup(ActionProfileGroup.getDefaultInstance()).build()), b.what);
            assertEquals(List.of(entry("sel_t", 1, toGroup(7))), ts.read(Entity.newBuilder().setTableEntry(TableEntry.newBuilder().setTableId(ts.tableId("sel_t"))).build()), b.what);
        }
        // the action profile holds 4 members: the fifth is refused
        var e = assertThrows(StatusRuntimeException.class, () -> write(Update.Type.INSERT, member("prof_t", 2, action("set_out", 2)),
                member("prof_t", 3, action("set_out", 3)), member("prof_t", 4, action("set_out", 4)), member("prof_t", 5, action("set_out", 5))));
        assertEquals(Status.Code.RESOURCE_EXHAUSTED.value(), TestSwitch.details(e).getLast().getCanonicalCode());
    }

    private static ValueSetMember pvsMember(long... fields) {
        ValueSetMember.Builder m = ValueSetMember.newBuilder();
        for (int i = 0; i < fields.length; i++) {
            m.addMatch(FieldMatch.newBuilder().setFieldId(i + 1).setExact(FieldMatch.Exact.newBuilder().setValue(bytes(fields[i]))));
        }
        return m.build();
    }

    private Entity valueSet(String alias, ValueSetMember... members) {
        return Entity.newBuilder().setValueSetEntry(ValueSetEntry.newBuilder().setValueSetId(valueSetId(alias)).addAllMembers(List.of(members))).build();
    }

    @Test
    void valueSetsAreReplacedAsAWholeAndSteerTheParser() throws Exception {
        assertEquals(0, send(0x88b5, 4, 0).get(2));
        write(Update.Type.MODIFY, valueSet("types", pvsMember(0x88b5), pvsMember(0x88b6)), valueSet("pairs", pvsMember(4, 0)));
        assertEquals(2, send(0x88b5, 4, 0).get(2));
        assertEquals(1, send(0x88b6, 5, 0).get(2));
        assertEquals(0, send(0x88b7, 4, 0).get(2));
        assertEquals(List.of(valueSet("types", pvsMember(0x88b5), pvsMember(0x88b6))), ts.read(valueSet("types")));
        assertEquals(2, ts.read(Entity.newBuilder().setValueSetEntry(ValueSetEntry.getDefaultInstance()).build()).size());
        write(Update.Type.MODIFY, valueSet("types", pvsMember(0x88b7)));
        assertEquals(List.of(valueSet("types", pvsMember(0x88b7))), ts.read(valueSet("types")));
        assertEquals(0, send(0x88b5, 4, 0).get(2));

        // a COMMIT of the running pipeline empties the value sets and drops members, groups and indirect entries
        write(Update.Type.INSERT, member("sel", 20, action("set_port", 1, 2)));
        write(Update.Type.INSERT, group("sel", 7, 20));
        write(Update.Type.INSERT, entry("sel_t", 1, toGroup(7)));
        ts.stub.setForwardingPipelineConfig(org.p4.v1.SetForwardingPipelineConfigRequest.newBuilder().setDeviceId(TestSwitch.DEVICE)
                .setElectionId(TestSwitch.election(1)).setAction(org.p4.v1.SetForwardingPipelineConfigRequest.Action.COMMIT).build());
        assertEquals(List.of(valueSet("types")), ts.read(valueSet("types")));
        assertTrue(ts.read(Entity.newBuilder().setActionProfileMember(ActionProfileMember.getDefaultInstance()).build()).isEmpty());
        assertTrue(ts.read(Entity.newBuilder().setActionProfileGroup(ActionProfileGroup.getDefaultInstance()).build()).isEmpty());
        assertTrue(ts.read(Entity.newBuilder().setTableEntry(TableEntry.newBuilder().setTableId(ts.tableId("sel_t"))).build()).isEmpty());
        write(Update.Type.MODIFY, valueSet("types", pvsMember(0x88b7)));

        record Bad(String what, Update.Type type, Entity entity, Status.Code code, String message) { }
        List<Bad> bad = List.of(
                new Bad("an insert", Update.Type.INSERT, valueSet("types", pvsMember(1)), Status.Code.INVALID_ARGUMENT, "can only be modified"),
                new Bad("more values than the set holds", Update.Type.MODIFY, valueSet("types", pvsMember(1), pvsMember(2), pvsMember(3)),
                        Status.Code.RESOURCE_EXHAUSTED, "at most 2"),
                new Bad("a missing field", Update.Type.MODIFY, valueSet("pairs", pvsMember(1)), Status.Code.INVALID_ARGUMENT, "every field"),
                new Bad("a value too wide", Update.Type.MODIFY, valueSet("types", pvsMember(0x10000)), Status.Code.INVALID_ARGUMENT, "does not fit"),
                new Bad("an unknown value set", Update.Type.MODIFY, Entity.newBuilder().setValueSetEntry(ValueSetEntry.newBuilder().setValueSetId(0x03ffffff)).build(),
                        Status.Code.NOT_FOUND, "no value set with id"));
        for (Bad b : bad) {
            var e = assertThrows(StatusRuntimeException.class, () -> ts.stub.write(ts.write(1, update(b.type, b.entity)).build()), b.what);
            org.p4.v1.Error err = TestSwitch.details(e).getLast();
            assertEquals(b.code.value(), err.getCanonicalCode(), b.what + ": " + err);
            assertTrue(err.getMessage().contains(b.message), b.what + ": " + err.getMessage());
            assertEquals(List.of(valueSet("types", pvsMember(0x88b7))), ts.read(valueSet("types")), b.what);
        }
    }
}
