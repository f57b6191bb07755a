package dev.innet.p4runtime;

import dev.innet.switchapi.ControlException;
import dev.innet.switchapi.CounterValue;
import dev.innet.switchapi.EntrySpec;
import dev.innet.switchapi.Match;
import dev.innet.switchapi.MeterConfig;
import dev.innet.switchapi.Replica;
import dev.innet.switchapi.SwitchControl;
import io.grpc.Status;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.p4.config.v1.Table;
import org.p4.v1.CounterEntry;
import org.p4.v1.DigestEntry;
import org.p4.v1.DirectMeterEntry;
import org.p4.v1.Entity;
import org.p4.v1.MeterEntry;
import org.p4.v1.PacketReplicationEngineEntry;
import org.p4.v1.RegisterEntry;
import org.p4.v1.TableAction;
import org.p4.v1.TableEntry;
import org.p4.v1.Update;
import org.p4.v1.ValueSetEntry;

/**
 * Turns P4Runtime updates into calls on p4sim's {@link SwitchControl}. Each update is first checked and
 * translated completely ({@link #prepare}: nothing touches the switch), then applied ({@link Prepared#apply}),
 * which returns how to undo it, so a batch can be rolled back. Callers hold the switch's lock.
 *
 * <p>State p4sim's control API does not keep is kept here: the digest configurations, the multicast
 * groups and clone sessions written through P4Runtime (for reads), and each table's initial default
 * action (a default-entry MODIFY without an action restores it).
 */
final class SwitchWriter {
    /** A translated update, ready to apply; {@code apply} returns its undo. */
    interface Prepared {
        Runnable apply();
    }

    private final ProgramIndex index;
    private final TableCodec codec;
    private final SwitchControl control;
    private final Map<String, EntrySpec> initialDefaults = new TreeMap<>();
    final Map<Integer, DigestEntry.Config> digestConfigs = new TreeMap<>();
    final Map<Integer, PacketReplicationEngineEntry> multicastGroups = new TreeMap<>();
    final Map<Integer, PacketReplicationEngineEntry> cloneSessions = new TreeMap<>();
    final Profiles profiles;

    SwitchWriter(ProgramIndex index, SwitchControl control) {
        this.index = index;
        this.codec = new TableCodec(index);
        this.control = control;
        this.profiles = new Profiles(index, codec, control);
        for (Table t : index.tables.values()) {
            initialDefaults.put(t.getPreamble().getName(), control.readDefaultAction(t.getPreamble().getName()));
        }
    }

    TableCodec codec() {
        return codec;
    }

    Prepared prepare(Update u) {
        if (u.getType() == Update.Type.UNSPECIFIED || u.getType() == Update.Type.UNRECOGNIZED) {
            throw P4RuntimeError.invalid("update type is not INSERT, MODIFY or DELETE");
        }
        Entity e = u.getEntity();
        return switch (e.getEntityCase()) {
            case TABLE_ENTRY -> tableEntry(u.getType(), e.getTableEntry());
            case COUNTER_ENTRY -> counterEntry(u.getType(), e.getCounterEntry());
            case REGISTER_ENTRY -> registerEntry(u.getType(), e.getRegisterEntry());
            case METER_ENTRY -> meterEntry(u.getType(), e.getMeterEntry());
            case DIRECT_METER_ENTRY -> directMeterEntry(u.getType(), e.getDirectMeterEntry());
            case DIGEST_ENTRY -> digestEntry(u.getType(), e.getDigestEntry());
            case PACKET_REPLICATION_ENGINE_ENTRY -> preEntry(u.getType(), e.getPacketReplicationEngineEntry());
            case ACTION_PROFILE_MEMBER -> profiles.member(u.getType(), e.getActionProfileMember());
            case ACTION_PROFILE_GROUP -> profiles.group(u.getType(), e.getActionProfileGroup());
            case VALUE_SET_ENTRY -> valueSetEntry(u.getType(), e.getValueSetEntry());
            case ENTITY_NOT_SET -> throw P4RuntimeError.invalid("update without an entity");
            default -> throw P4RuntimeError.unimplemented(e.getEntityCase() + " writes are not supported by p4sim");
        };
    }

    // ---------------------------------------------------------------- tables

    private Prepared tableEntry(Update.Type type, TableEntry te) {
        Table table = index.table(te.getTableId());
        String name = table.getPreamble().getName();
        if (te.getIsDefaultAction()) {
            if (type != Update.Type.MODIFY) {
                throw P4RuntimeError.invalid(name + ": the default entry can only be modified, not " + type);
            }
            if (te.getMatchCount() > 0 || te.getPriority() != 0) {
                throw P4RuntimeError.invalid(name + ": the default entry has no match and no priority");
            }
            if (table.getConstDefaultActionId() != 0) {
                throw new P4RuntimeError(Status.Code.PERMISSION_DENIED, name + " has a const default action");
            }
            if (table.getImplementationId() != 0 && te.hasAction() && !te.getAction().hasAction()) {
                TableAction ref = profiles.reference(table, te.getAction());
                return () -> {
                    int h = profiles.handle(table, ref);
                    EntrySpec old = control.readDefaultAction(name);
                    TableAction oldRef = profiles.defaults.get(name);
                    call(() -> control.setIndirectDefault(name, h, ref.hasActionProfileGroupId()));
                    profiles.defaults.put(name, ref);
                    return () -> restoreDefault(table, old, oldRef);
                };
            }
            EntrySpec target = te.hasAction()
                    ? toSpec(name, List.of(), 0, codec.action(table, te.getAction(), true))
                    : initialDefaults.get(name);
            return () -> {
                EntrySpec old = control.readDefaultAction(name);
                TableAction oldRef = profiles.defaults.get(name);
                call(() -> control.setDefaultAction(name, target.action(), target.args()));
                profiles.defaults.remove(name);
                return () -> restoreDefault(table, old, oldRef);
            };
        }
        if (table.getIsConstTable()) {
            throw new P4RuntimeError(Status.Code.PERMISSION_DENIED, name + " has const entries and cannot be changed");
        }
        List<Match> match = codec.match(table, te);
        int priority = codec.priority(table, te);
        if (table.getImplementationId() != 0) {
            return indirectEntry(type, table, match, priority, te);
        }
        return switch (type) {
            case INSERT -> {
                EntrySpec spec = toSpec(name, match, priority, codec.action(table, te.getAction(), false));
                yield () -> {
                    call(() -> control.addEntry(spec));
                    return () -> control.deleteEntry(name, match, priority);
                };
            }
            case MODIFY -> {
                EntrySpec spec = toSpec(name, match, priority, codec.action(table, te.getAction(), false));
                yield () -> {
                    EntrySpec old = find(name, match, priority);
                    call(() -> control.modifyEntry(spec));
                    return () -> control.modifyEntry(old);
                };
            }
            case DELETE -> () -> {
                EntrySpec old = find(name, match, priority);
                call(() -> control.deleteEntry(name, match, priority));
                return () -> control.addEntry(old);
            };
            default -> throw P4RuntimeError.invalid("update type " + type);
        };
    }

    private void restoreDefault(Table table, EntrySpec old, TableAction oldRef) {
        String name = table.getPreamble().getName();
        if (oldRef != null) {
            control.setIndirectDefault(name, profiles.handle(table, oldRef), oldRef.hasActionProfileGroupId());
            profiles.defaults.put(name, oldRef);
        } else {
            control.setDefaultAction(name, old.action(), old.args());
            profiles.defaults.remove(name);
        }
    }

    /** An entry of a table with an action profile: it runs a member or a group (p4sim has no in-place modify for these). */
    private Prepared indirectEntry(Update.Type type, Table table, List<Match> match, int priority, TableEntry te) {
        String name = table.getPreamble().getName();
        Profiles.Key key = new Profiles.Key(match, priority);
        TableAction ref = type == Update.Type.DELETE ? null : profiles.reference(table, te.getAction());
        java.util.function.Function<TableAction, Runnable> add = r -> () -> control.addIndirectEntry(name, match, priority,
                profiles.handle(table, r), r.hasActionProfileGroupId());
        return switch (type) {
            case INSERT -> () -> {
                int h = profiles.handle(table, ref);
                call(() -> control.addIndirectEntry(name, match, priority, h, ref.hasActionProfileGroupId()));
                profiles.entries.computeIfAbsent(name, k -> new java.util.HashMap<>()).put(key, ref);
                return () -> {
                    control.deleteEntry(name, match, priority);
                    profiles.entries.get(name).remove(key);
                };
            };
            case MODIFY -> () -> {
                find(name, match, priority);
                TableAction oldRef = knownIndirect(name, key);
                int h = profiles.handle(table, ref);
                call(() -> control.deleteEntry(name, match, priority));
                call(() -> control.addIndirectEntry(name, match, priority, h, ref.hasActionProfileGroupId()));
                profiles.entries.get(name).put(key, ref);
                return () -> {
                    control.deleteEntry(name, match, priority);
                    add.apply(oldRef).run();
                    profiles.entries.get(name).put(key, oldRef);
                };
            };
            case DELETE -> () -> {
                find(name, match, priority);
                TableAction oldRef = knownIndirect(name, key);
                call(() -> control.deleteEntry(name, match, priority));
                profiles.entries.get(name).remove(key);
                return () -> {
                    add.apply(oldRef).run();
                    profiles.entries.get(name).put(key, oldRef);
                };
            };
            default -> throw P4RuntimeError.invalid("update type " + type);
        };
    }

    private TableAction knownIndirect(String table, Profiles.Key key) {
        TableAction r = profiles.entries.getOrDefault(table, Map.of()).get(key);
        if (r == null) {
            throw new P4RuntimeError(Status.Code.FAILED_PRECONDITION, "the entry of table " + table
                    + " was not written through P4Runtime (its member or group is unknown here)");
        }
        return r;
    }

    // ---------------------------------------------------------------- parser value sets

    /** A value set's new contents (P4Runtime only modifies a value set as a whole): each member, its fields exact. */
    private Prepared valueSetEntry(Update.Type type, ValueSetEntry ve) {
        var vs = index.valueSet(ve.getValueSetId());
        String name = vs.getPreamble().getName();
        if (type != Update.Type.MODIFY) {
            throw P4RuntimeError.invalid("value set " + name + ": a value set can only be modified (its members replaced), not " + type);
        }
        java.util.LinkedHashSet<BigInteger> values = new java.util.LinkedHashSet<>();
        for (var member : ve.getMembersList()) {
            Map<Integer, org.p4.v1.FieldMatch> byId = new java.util.HashMap<>();
            for (var fm : member.getMatchList()) {
                if (byId.put(fm.getFieldId(), fm) != null) {
                    throw P4RuntimeError.invalid(name + ": match field id " + fm.getFieldId() + " given twice");
                }
            }
            BigInteger v = BigInteger.ZERO;
            for (var mf : vs.getMatchList()) {
                var fm = byId.remove(mf.getId());
                String what = name + " field " + (mf.getName().isEmpty() ? "#" + mf.getId() : mf.getName());
                if (mf.getMatchType() != org.p4.config.v1.MatchField.MatchType.EXACT) {
                    throw P4RuntimeError.unimplemented(what + ": p4sim matches value sets exactly; this field is " + mf.getMatchType());
                }
                if (fm == null || !fm.hasExact()) {
                    throw P4RuntimeError.invalid(what + ": every member needs an exact value for every field");
                }
                v = v.shiftLeft(mf.getBitwidth()).or(Bytes.decode(fm.getExact().getValue(), mf.getBitwidth(), what));
            }
            if (!byId.isEmpty()) {
                throw P4RuntimeError.invalid(name + ": no match field with id " + byId.keySet().iterator().next());
            }
            values.add(v);
        }
        if (values.size() > vs.getSize()) {
            throw new P4RuntimeError(Status.Code.RESOURCE_EXHAUSTED, "value set " + name + " holds at most " + vs.getSize()
                    + " values, the request gives " + values.size());
        }
        return () -> {
            List<BigInteger> old = control.valueSetRead(name);
            call(() -> {
                control.valueSetClear(name);
                values.forEach(x -> control.valueSetAdd(name, x));
            });
            return () -> {
                control.valueSetClear(name);
                old.forEach(x -> control.valueSetAdd(name, x));
            };
        };
    }

    private static EntrySpec toSpec(String table, List<Match> match, int priority, TableCodec.ActionCall a) {
        return new EntrySpec(table, match, priority, a.name(), a.args());
    }

    /** The entry with exactly this match and priority; NOT_FOUND without one. */
    EntrySpec find(String table, List<Match> match, int priority) {
        for (EntrySpec s : control.readEntries(table)) {
            if (s.priority() == priority && sameMatch(s.match(), match)) {
                return s;
            }
        }
        throw P4RuntimeError.notFound("no entry with this match in table " + table);
    }

    /** Equal matches; an exact value equals a full-width ternary/lpm/range form of it (p4sim may normalise). */
    private static boolean sameMatch(List<Match> a, List<Match> b) {
        if (a.size() != b.size()) {
            return false;
        }
        for (int i = 0; i < a.size(); i++) {
            if (!a.get(i).equals(b.get(i))) {
                return false;
            }
        }
        return true;
    }

    // ---------------------------------------------------------------- externs

    private Prepared counterEntry(Update.Type type, CounterEntry ce) {
        if (type != Update.Type.MODIFY) {
            throw P4RuntimeError.invalid("counter entries can only be modified, not " + type);
        }
        var counter = index.counter(ce.getCounterId());
        String name = counter.getPreamble().getName();
        List<Integer> cells = cells(name, ce.hasIndex(), ce.getIndex().getIndex(), counter.getSize());
        CounterValue v = new CounterValue(ce.getData().getPacketCount(), ce.getData().getByteCount());
        if (v.packets() < 0 || v.bytes() < 0) {
            throw P4RuntimeError.invalid(name + ": counts must not be negative");
        }
        return () -> {
            List<CounterValue> old = new ArrayList<>();
            for (int i : cells) {
                old.add(control.counterRead(name, i));
            }
            for (int i : cells) {
                call(() -> control.counterWrite(name, i, v));
            }
            return () -> {
                for (int k = 0; k < cells.size(); k++) {
                    control.counterWrite(name, cells.get(k), old.get(k));
                }
            };
        };
    }

    private Prepared registerEntry(Update.Type type, RegisterEntry re) {
        if (type != Update.Type.MODIFY) {
            throw P4RuntimeError.invalid("register entries can only be modified, not " + type);
        }
        var register = index.register(re.getRegisterId());
        String name = register.getPreamble().getName();
        List<Integer> cells = cells(name, re.hasIndex(), re.getIndex().getIndex(), register.getSize());
        if (!re.hasData() || !re.getData().hasBitstring()) {
            throw P4RuntimeError.invalid(name + ": the register data must be a bitstring");
        }
        int width = register.getTypeSpec().getBitstring().getBit().getBitwidth();
        BigInteger v = Bytes.decode(re.getData().getBitstring(), width, name);
        return () -> {
            List<BigInteger> old = new ArrayList<>();
            for (int i : cells) {
                old.add(control.registerRead(name, i));
            }
            for (int i : cells) {
                call(() -> control.registerWrite(name, i, v));
            }
            return () -> {
                for (int k = 0; k < cells.size(); k++) {
                    control.registerWrite(name, cells.get(k), old.get(k));
                }
            };
        };
    }

    private Prepared meterEntry(Update.Type type, MeterEntry me) {
        if (type != Update.Type.MODIFY) {
            throw P4RuntimeError.invalid("meter entries can only be modified, not " + type);
        }
        var meter = index.meter(me.getMeterId());
        String name = meter.getPreamble().getName();
        List<Integer> cells = cells(name, me.hasIndex(), me.getIndex().getIndex(), meter.getSize());
        if (!me.hasConfig()) {
            throw P4RuntimeError.unimplemented(name + ": p4sim cannot unconfigure a meter (give a config)");
        }
        MeterConfig cfg = meterConfig(name, me.getConfig());
        return () -> {
            List<MeterConfig> old = new ArrayList<>();
            for (int i : cells) {
                old.add(control.meterRead(name, i));
            }
            for (int i : cells) {
                call(() -> control.meterSet(name, i, cfg));
            }
            return () -> {
                for (int k = 0; k < cells.size(); k++) {
                    if (old.get(k) != null) {
                        control.meterSet(name, cells.get(k), old.get(k));
                    }
                }
            };
        };
    }

    private Prepared directMeterEntry(Update.Type type, DirectMeterEntry dm) {
        if (type != Update.Type.MODIFY) {
            throw P4RuntimeError.invalid("direct meter entries can only be modified, not " + type);
        }
        Table table = index.table(dm.getTableEntry().getTableId());
        String name = table.getPreamble().getName();
        List<Match> match = codec.match(table, dm.getTableEntry());
        int priority = codec.priority(table, dm.getTableEntry());
        if (!dm.hasConfig()) {
            throw P4RuntimeError.unimplemented(name + ": p4sim cannot unconfigure a direct meter (give a config)");
        }
        MeterConfig cfg = meterConfig(name, dm.getConfig());
        // p4sim cannot read a direct meter's configuration back, so this update has no undo
        return () -> {
            call(() -> control.directMeterSet(name, match, priority, cfg));
            return () -> { };
        };
    }

    /** P4Runtime rates are units per second, bursts in units; p4sim's (bmv2's) rates are per microsecond. */
    private static MeterConfig meterConfig(String name, org.p4.v1.MeterConfig c) {
        if (c.getCir() < 0 || c.getPir() < 0 || c.getCburst() < 0 || c.getPburst() < 0) {
            throw P4RuntimeError.invalid(name + ": meter rates and bursts must not be negative");
        }
        if (c.getCir() > c.getPir()) {
            throw P4RuntimeError.invalid(name + ": committed rate " + c.getCir() + " is above the peak rate " + c.getPir());
        }
        return new MeterConfig(c.getCir() / 1e6, c.getCburst(), c.getPir() / 1e6, c.getPburst());
    }

    private Prepared digestEntry(Update.Type type, DigestEntry de) {
        int id = index.digest(de.getDigestId()).getPreamble().getId();
        String name = index.digest(id).getPreamble().getName();
        boolean present = digestConfigs.containsKey(id);
        switch (type) {
            case INSERT -> {
                if (present) {
                    throw new P4RuntimeError(Status.Code.ALREADY_EXISTS, "digest " + name + " is already configured");
                }
            }
            case MODIFY, DELETE -> {
                if (!present) {
                    throw P4RuntimeError.notFound("digest " + name + " is not configured");
                }
            }
            default -> throw P4RuntimeError.invalid("update type " + type);
        }
        if (type != Update.Type.DELETE && !de.hasConfig()) {
            throw P4RuntimeError.invalid("digest " + name + ": INSERT and MODIFY need a config");
        }
        return () -> {
            DigestEntry.Config old = digestConfigs.get(id);
            if (type == Update.Type.DELETE) {
                digestConfigs.remove(id);
            } else {
                digestConfigs.put(id, de.getConfig());
            }
            return () -> {
                if (old == null) {
                    digestConfigs.remove(id);
                } else {
                    digestConfigs.put(id, old);
                }
            };
        };
    }

    private Prepared preEntry(Update.Type type, PacketReplicationEngineEntry pre) {
        switch (pre.getTypeCase()) {
            case MULTICAST_GROUP_ENTRY -> {
                var g = pre.getMulticastGroupEntry();
                int id = g.getMulticastGroupId();
                checkPresence(type, multicastGroups.containsKey(id), "multicast group " + id);
                List<Replica> replicas = new ArrayList<>();
                for (var r : g.getReplicasList()) {
                    replicas.add(new Replica(port(r), r.getInstance()));
                }
                return () -> {
                    PacketReplicationEngineEntry old = multicastGroups.get(id);
                    if (type == Update.Type.DELETE) {
                        call(() -> control.multicastGroupDelete(id));
                        multicastGroups.remove(id);
                    } else {
                        call(() -> control.multicastGroupSet(id, replicas));
                        multicastGroups.put(id, pre);
                    }
                    return () -> {
                        if (old == null) {
                            control.multicastGroupDelete(id);
                            multicastGroups.remove(id);
                        } else {
                            control.multicastGroupSet(id, old.getMulticastGroupEntry().getReplicasList().stream()
                                    .map(r -> new Replica(port(r), r.getInstance())).toList());
                            multicastGroups.put(id, old);
                        }
                    };
                };
            }
            case CLONE_SESSION_ENTRY -> {
                var s = pre.getCloneSessionEntry();
                int id = s.getSessionId();
                checkPresence(type, cloneSessions.containsKey(id), "clone session " + id);
                if (type != Update.Type.DELETE && s.getReplicasCount() != 1) {
                    throw P4RuntimeError.unimplemented("clone session " + id + ": p4sim clones to exactly one port, got "
                            + s.getReplicasCount() + " replicas");
                }
                if (type != Update.Type.DELETE && (s.getClassOfService() != 0 || s.getPacketLengthBytes() != 0)) {
                    throw P4RuntimeError.unimplemented("clone session " + id + ": class_of_service and packet_length_bytes are not supported");
                }
                int port = type == Update.Type.DELETE ? 0 : port(s.getReplicas(0));
                return () -> {
                    PacketReplicationEngineEntry old = cloneSessions.get(id);
                    if (type == Update.Type.DELETE) {
                        call(() -> control.cloneSessionDelete(id));
                        cloneSessions.remove(id);
                    } else {
                        call(() -> control.cloneSessionSet(id, port));
                        cloneSessions.put(id, pre);
                    }
                    return () -> {
                        if (old == null) {
                            control.cloneSessionDelete(id);
                            cloneSessions.remove(id);
                        } else {
                            control.cloneSessionSet(id, port(old.getCloneSessionEntry().getReplicas(0)));
                            cloneSessions.put(id, old);
                        }
                    };
                };
            }
            default -> throw P4RuntimeError.invalid("packet replication engine entry without a group or session");
        }
    }

    private static void checkPresence(Update.Type type, boolean present, String what) {
        if (type == Update.Type.INSERT && present) {
            throw new P4RuntimeError(Status.Code.ALREADY_EXISTS, what + " already exists");
        }
        if (type != Update.Type.INSERT && !present) {
            throw P4RuntimeError.notFound(what + " does not exist");
        }
    }

    /** A replica's port: P4Runtime 1.4+ gives it as bytes ({@code port}), older clients as {@code egress_port}. */
    static int port(org.p4.v1.Replica r) {
        if (r.hasPort()) {
            return Bytes.decode(r.getPort(), 9, "replica port").intValue();
        }
        return r.getEgressPort();
    }

    private static List<Integer> cells(String name, boolean hasIndex, long index, long size) {
        if (hasIndex) {
            if (index < 0 || index >= size) {
                throw P4RuntimeError.invalid(name + ": index " + index + " outside 0.." + (size - 1));
            }
            return List.of((int) index);
        }
        List<Integer> all = new ArrayList<>();
        for (int i = 0; i < size; i++) {
            all.add(i);
        }
        return all;
    }

    /** Runs a p4sim control call, turning its rejection into the P4Runtime status that fits it. */
    static void call(Runnable r) {
        try {
            r.run();
        } catch (ControlException e) {
            throw fromControl(e);
        }
    }

    static P4RuntimeError fromControl(ControlException e) {
        String m = e.getMessage();
        Status.Code code;
        if (m.contains("already exists")) {
            code = Status.Code.ALREADY_EXISTS;
        } else if (m.startsWith("no entry") || m.contains("does not exist")) {
            code = Status.Code.NOT_FOUND;
        } else if (m.contains("is full")) {
            code = Status.Code.RESOURCE_EXHAUSTED;
        } else if (m.contains("const")) {
            code = Status.Code.PERMISSION_DENIED;
        } else {
            code = Status.Code.INVALID_ARGUMENT;
        }
        return new P4RuntimeError(code, m);
    }
}
