package dev.innet.p4runtime;

import dev.innet.switchapi.CounterValue;
import dev.innet.switchapi.EntrySpec;
import dev.innet.switchapi.Match;
import dev.innet.switchapi.MeterConfig;
import dev.innet.switchapi.SwitchControl;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Map;
import java.util.List;
import java.util.function.Consumer;
import org.p4.config.v1.ActionProfile;
import org.p4.config.v1.Counter;
import org.p4.config.v1.MatchField;
import org.p4.config.v1.ValueSet;
import org.p4.config.v1.Meter;
import org.p4.config.v1.Register;
import org.p4.config.v1.Table;
import org.p4.v1.ActionProfileGroup;
import org.p4.v1.ActionProfileMember;
import org.p4.v1.CounterData;
import org.p4.v1.FieldMatch;
import org.p4.v1.TableAction;
import org.p4.v1.ValueSetEntry;
import org.p4.v1.ValueSetMember;
import org.p4.v1.CounterEntry;
import org.p4.v1.DigestEntry;
import org.p4.v1.Entity;
import org.p4.v1.Index;
import org.p4.v1.MeterEntry;
import org.p4.v1.P4Data;
import org.p4.v1.RegisterEntry;
import org.p4.v1.TableEntry;

/**
 * Answers P4Runtime reads from p4sim's state. Wildcards as the specification defines them: a zero id
 * reads every object of that kind, an unset index every cell, a table entry without match fields every
 * entry of its table (and with {@code is_default_action} the default entry). Callers hold the switch's lock.
 */
final class SwitchReader {
    private final ProgramIndex index;
    private final SwitchControl control;
    private final SwitchWriter writer;

    SwitchReader(ProgramIndex index, SwitchControl control, SwitchWriter writer) {
        this.index = index;
        this.control = control;
        this.writer = writer;
    }

    void read(Entity e, Consumer<Entity> out) {
        switch (e.getEntityCase()) {
            case TABLE_ENTRY -> tableEntries(e.getTableEntry(), out);
            case COUNTER_ENTRY -> counters(e.getCounterEntry(), out);
            case REGISTER_ENTRY -> registers(e.getRegisterEntry(), out);
            case METER_ENTRY -> meters(e.getMeterEntry(), out);
            case DIGEST_ENTRY -> digests(e.getDigestEntry(), out);
            case PACKET_REPLICATION_ENGINE_ENTRY -> {
                var pre = e.getPacketReplicationEngineEntry();
                if (pre.hasCloneSessionEntry()) {
                    int id = pre.getCloneSessionEntry().getSessionId();
                    writer.cloneSessions.forEach((k, v) -> {
                        if (id == 0 || id == k) {
                            out.accept(Entity.newBuilder().setPacketReplicationEngineEntry(v).build());
                        }
                    });
                } else {
                    int id = pre.getMulticastGroupEntry().getMulticastGroupId();
                    writer.multicastGroups.forEach((k, v) -> {
                        if (id == 0 || id == k) {
                            out.accept(Entity.newBuilder().setPacketReplicationEngineEntry(v).build());
                        }
                    });
                }
            }
            case ACTION_PROFILE_MEMBER -> profileMembers(e.getActionProfileMember(), out);
            case ACTION_PROFILE_GROUP -> profileGroups(e.getActionProfileGroup(), out);
            case VALUE_SET_ENTRY -> valueSets(e.getValueSetEntry(), out);
            case ENTITY_NOT_SET -> throw P4RuntimeError.invalid("read of an entity that is not set");
            default -> throw P4RuntimeError.unimplemented(e.getEntityCase() + " reads are not supported by p4sim");
        }
    }

    private void tableEntries(TableEntry query, Consumer<Entity> out) {
        List<Table> tables = new ArrayList<>();
        if (query.getTableId() == 0) {
            if (query.getMatchCount() > 0 || query.getIsDefaultAction()) {
                throw P4RuntimeError.invalid("a wildcard read of all tables cannot give match fields or is_default_action");
            }
            tables.addAll(index.p4info.getTablesList());
        } else {
            tables.add(index.table(query.getTableId()));
        }
        TableCodec codec = writer.codec();
        for (Table t : tables) {
            String name = t.getPreamble().getName();
            if (query.getIsDefaultAction()) {
                out.accept(entity(codec.toP4Runtime(t, control.readDefaultAction(name), true, writer.profiles.defaults.get(name))));
                continue;
            }
            Map<Profiles.Key, TableAction> indirect = writer.profiles.entries.getOrDefault(name, Map.of());
            List<EntrySpec> entries;
            if (query.getMatchCount() > 0) {
                List<Match> match = codec.match(t, query);
                EntrySpec found;
                try {
                    found = writer.find(name, match, query.getPriority());
                } catch (P4RuntimeError notThere) {
                    continue; // a read of an absent entry returns nothing
                }
                entries = List.of(found);
            } else {
                entries = control.readEntries(name);
            }
            boolean withCounters = query.hasCounterData() && !t.getDirectResourceIdsList().isEmpty()
                    && t.getDirectResourceIdsList().stream().anyMatch(index.directCounters::containsKey);
            for (EntrySpec s : entries) {
                if (query.getPriority() != 0 && s.priority() != query.getPriority()) {
                    continue;
                }
                TableEntry te = codec.toP4Runtime(t, s, false, indirect.get(new Profiles.Key(s.match(), s.priority())));
                if (withCounters) {
                    CounterValue v = control.directCounterRead(name, s.match(), s.priority());
                    te = te.toBuilder().setCounterData(CounterData.newBuilder().setPacketCount(v.packets()).setByteCount(v.bytes())).build();
                }
                out.accept(entity(te));
            }
        }
    }

    private List<ActionProfile> profiles(int id) {
        return id == 0 ? index.p4info.getActionProfilesList() : List.of(index.actionProfile(id));
    }

    private void profileMembers(ActionProfileMember query, Consumer<Entity> out) {
        for (ActionProfile p : profiles(query.getActionProfileId())) {
            int pid = p.getPreamble().getId();
            writer.profiles.members.get(pid).forEach((id, m) -> {
                if (query.getMemberId() == 0 || query.getMemberId() == id) {
                    out.accept(Entity.newBuilder().setActionProfileMember(ActionProfileMember.newBuilder()
                            .setActionProfileId(pid).setMemberId(id).setAction(m.action())).build());
                }
            });
        }
    }

    private void profileGroups(ActionProfileGroup query, Consumer<Entity> out) {
        for (ActionProfile p : profiles(query.getActionProfileId())) {
            int pid = p.getPreamble().getId();
            writer.profiles.groups.get(pid).forEach((id, g) -> {
                if (query.getGroupId() == 0 || query.getGroupId() == id) {
                    ActionProfileGroup.Builder b = ActionProfileGroup.newBuilder().setActionProfileId(pid).setGroupId(id).setMaxSize(g.maxSize());
                    g.members().forEach(m -> b.addMembers(ActionProfileGroup.Member.newBuilder().setMemberId(m).setWeight(1)));
                    out.accept(Entity.newBuilder().setActionProfileGroup(b).build());
                }
            });
        }
    }

    /** A value set's members, each split into its match fields (first field most significant). */
    private void valueSets(ValueSetEntry query, Consumer<Entity> out) {
        List<ValueSet> all = query.getValueSetId() == 0 ? index.p4info.getValueSetsList() : List.of(index.valueSet(query.getValueSetId()));
        for (ValueSet vs : all) {
            ValueSetEntry.Builder b = ValueSetEntry.newBuilder().setValueSetId(vs.getPreamble().getId());
            for (BigInteger v : control.valueSetRead(vs.getPreamble().getName())) {
                ValueSetMember.Builder mb = ValueSetMember.newBuilder();
                int shift = vs.getMatchList().stream().mapToInt(MatchField::getBitwidth).sum();
                for (MatchField mf : vs.getMatchList()) {
                    shift -= mf.getBitwidth();
                    BigInteger field = v.shiftRight(shift).and(BigInteger.ONE.shiftLeft(mf.getBitwidth()).subtract(BigInteger.ONE));
                    mb.addMatch(FieldMatch.newBuilder().setFieldId(mf.getId()).setExact(FieldMatch.Exact.newBuilder().setValue(Bytes.encode(field))));
                }
                b.addMembers(mb);
            }
            out.accept(Entity.newBuilder().setValueSetEntry(b).build());
        }
    }

    private void counters(CounterEntry query, Consumer<Entity> out) {
        List<Counter> all = query.getCounterId() == 0 ? index.p4info.getCountersList() : List.of(index.counter(query.getCounterId()));
        for (Counter c : all) {
            String name = c.getPreamble().getName();
            for (long i : cells(name, query.hasIndex(), query.getIndex().getIndex(), c.getSize())) {
                CounterValue v = control.counterRead(name, (int) i);
                out.accept(Entity.newBuilder().setCounterEntry(CounterEntry.newBuilder().setCounterId(c.getPreamble().getId())
                        .setIndex(Index.newBuilder().setIndex(i))
                        .setData(CounterData.newBuilder().setPacketCount(v.packets()).setByteCount(v.bytes()))).build());
            }
        }
    }

    private void registers(RegisterEntry query, Consumer<Entity> out) {
        List<Register> all = query.getRegisterId() == 0 ? index.p4info.getRegistersList() : List.of(index.register(query.getRegisterId()));
        for (Register r : all) {
            String name = r.getPreamble().getName();
            for (long i : cells(name, query.hasIndex(), query.getIndex().getIndex(), r.getSize())) {
                out.accept(Entity.newBuilder().setRegisterEntry(RegisterEntry.newBuilder().setRegisterId(r.getPreamble().getId())
                        .setIndex(Index.newBuilder().setIndex(i))
                        .setData(P4Data.newBuilder().setBitstring(Bytes.encode(control.registerRead(name, (int) i))))).build());
            }
        }
    }

    private void meters(MeterEntry query, Consumer<Entity> out) {
        List<Meter> all = query.getMeterId() == 0 ? index.p4info.getMetersList() : List.of(index.meter(query.getMeterId()));
        for (Meter m : all) {
            String name = m.getPreamble().getName();
            for (long i : cells(name, query.hasIndex(), query.getIndex().getIndex(), m.getSize())) {
                MeterEntry.Builder b = MeterEntry.newBuilder().setMeterId(m.getPreamble().getId()).setIndex(Index.newBuilder().setIndex(i));
                MeterConfig c = control.meterRead(name, (int) i);
                if (c != null) {
                    b.setConfig(org.p4.v1.MeterConfig.newBuilder().setCir(Math.round(c.committedRate() * 1e6)).setCburst(c.committedBurst())
                            .setPir(Math.round(c.peakRate() * 1e6)).setPburst(c.peakBurst()));
                }
                out.accept(Entity.newBuilder().setMeterEntry(b).build());
            }
        }
    }

    private void digests(DigestEntry query, Consumer<Entity> out) {
        if (query.getDigestId() != 0) {
            index.digest(query.getDigestId());
        }
        writer.digestConfigs.forEach((id, cfg) -> {
            if (query.getDigestId() == 0 || query.getDigestId() == id) {
                out.accept(Entity.newBuilder().setDigestEntry(DigestEntry.newBuilder().setDigestId(id).setConfig(cfg)).build());
            }
        });
    }

    private static List<Long> cells(String name, boolean hasIndex, long i, long size) {
        if (hasIndex) {
            if (i < 0 || i >= size) {
                throw P4RuntimeError.invalid(name + ": index " + i + " outside 0.." + (size - 1));
            }
            return List.of(i);
        }
        List<Long> all = new ArrayList<>();
        for (long k = 0; k < size; k++) {
            all.add(k);
        }
        return all;
    }

    private static Entity entity(TableEntry te) {
        return Entity.newBuilder().setTableEntry(te).build();
    }
}
