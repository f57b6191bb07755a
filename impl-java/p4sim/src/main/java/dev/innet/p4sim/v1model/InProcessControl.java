package dev.innet.p4sim.v1model;

import dev.innet.p4sim.compiler.CompiledProgram;
import dev.innet.switchapi.ControlException;
import dev.innet.switchapi.CounterValue;
import dev.innet.switchapi.Digest;
import dev.innet.p4sim.control.EntryEncoder;
import dev.innet.switchapi.EntrySpec;
import dev.innet.switchapi.Match;
import dev.innet.switchapi.PacketIn;
import dev.innet.switchapi.Replica;
import dev.innet.switchapi.SwitchControl;
import dev.innet.p4sim.runtime.ActionProfileRuntime;
import dev.innet.p4sim.runtime.ActionRuntime;
import dev.innet.p4sim.runtime.CounterArray;
import dev.innet.p4sim.runtime.RegisterArray;
import dev.innet.p4sim.runtime.TableEntry;
import dev.innet.p4sim.runtime.TableRuntime;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/** {@link SwitchControl} on a p4sim instance in the same process. Validates fully before changing anything. */
final class InProcessControl implements SwitchControl {
    private final CompiledProgram prog;
    private final V1ModelPipeline pipeline;
    private final Consumer<byte[]> packetOutInjector;

    InProcessControl(CompiledProgram prog, V1ModelPipeline pipeline, Consumer<byte[]> packetOutInjector) {
        this.prog = prog;
        this.pipeline = pipeline;
        this.packetOutInjector = packetOutInjector;
    }

    private TableRuntime table(String name) {
        TableRuntime t = prog.tables().get(name);
        if (t == null) {
            throw new ControlException("unknown table '" + name + "' (tables: " + prog.tables().keySet() + ")");
        }
        return t;
    }

    private static void mutable(TableRuntime t) {
        if (t.constEntries) {
            throw new ControlException("table " + t.name + " has const entries and cannot be changed");
        }
    }

    @Override
    public void addEntry(EntrySpec e) {
        TableRuntime t = table(e.table());
        mutable(t);
        direct(t);
        EntryEncoder.Encoded enc = EntryEncoder.encodeMatch(t, e.match(), e.priority());
        ActionRuntime a = entryAction(t, e.action());
        long[] args = EntryEncoder.encodeArgs(a, e.args());
        if (t.find(enc.value(), enc.mask(), e.priority()) != null) {
            throw new ControlException("an entry with this match already exists in table " + t.name);
        }
        if (t.entryCount() >= t.capacity) {
            throw new ControlException("table " + t.name + " is full (size " + t.capacity + ")");
        }
        t.insert(enc.value(), enc.mask(), e.priority(), enc.prefixLength(), a, args);
    }

    @Override
    public void modifyEntry(EntrySpec e) {
        TableRuntime t = table(e.table());
        mutable(t);
        direct(t);
        TableEntry existing = existing(t, e.match(), e.priority());
        ActionRuntime a = entryAction(t, e.action());
        long[] args = EntryEncoder.encodeArgs(a, e.args());
        existing.action = a;
        existing.args = args;
        existing.actionIndex = t.actionIndex(a);
    }

    private static void direct(TableRuntime t) {
        if (t.profile != null) {
            throw new ControlException("table " + t.name + " has an action profile (" + t.profile.name
                    + "): its entries run members or groups (addIndirectEntry)");
        }
    }

    private static ActionRuntime entryAction(TableRuntime t, String name) {
        ActionRuntime a = EntryEncoder.action(t, name);
        if (t.actionScopes[t.actionIndex(a)].equals("defaultonly")) {
            throw new ControlException("action " + a.name + " is @defaultonly in table " + t.name + " and cannot be used by entries");
        }
        return a;
    }

    private static TableEntry existing(TableRuntime t, List<Match> match, int priority) {
        EntryEncoder.Encoded enc = EntryEncoder.encodeMatch(t, match, priority);
        TableEntry existing = t.find(enc.value(), enc.mask(), priority);
        if (existing == null) {
            throw new ControlException("no entry with this match in table " + t.name);
        }
        return existing;
    }

    @Override
    public void deleteEntry(String table, List<Match> match, int priority) {
        TableRuntime t = table(table);
        mutable(t);
        t.remove(existing(t, match, priority));
    }

    // ---------------------------------------------------------------- action profiles and selectors

    private ActionProfileRuntime profile(String name) {
        Map<String, ActionProfileRuntime> all = prog.arch().actionProfiles;
        ActionProfileRuntime p = all.get(name);
        if (p == null) {
            List<ActionProfileRuntime> bySuffix = all.values().stream().filter(x -> x.name.endsWith("." + name)).toList();
            if (bySuffix.size() == 1) {
                p = bySuffix.get(0);
            }
        }
        if (p == null) {
            throw new ControlException("unknown action profile '" + name + "' (action profiles: " + all.keySet() + ")");
        }
        return p;
    }

    /** A table that uses the profile: its actions are the profile's. */
    private TableRuntime tableOf(ActionProfileRuntime p) {
        return prog.tables().values().stream().filter(t -> t.profile == p).findFirst()
                .orElseThrow(() -> new ControlException("no table uses action profile " + p.name));
    }

    private static <T> T profileCall(java.util.function.Supplier<T> call) {
        try {
            return call.get();
        } catch (IllegalStateException e) {
            throw new ControlException(e.getMessage());
        }
    }

    @Override
    public int actionProfileAddMember(String profile, String action, List<BigInteger> args) {
        ActionProfileRuntime p = profile(profile);
        ActionRuntime a = entryAction(tableOf(p), action);
        long[] data = EntryEncoder.encodeArgs(a, args);
        return profileCall(() -> p.addMember(a, data));
    }

    @Override
    public void actionProfileModifyMember(String profile, int member, String action, List<BigInteger> args) {
        ActionProfileRuntime p = profile(profile);
        ActionRuntime a = entryAction(tableOf(p), action);
        long[] data = EntryEncoder.encodeArgs(a, args);
        ActionProfileRuntime.Member m = profileCall(() -> {
            p.requireMember(member);
            return p.member(member);
        });
        m.action = a;
        m.args = data;
    }

    @Override
    public void actionProfileDeleteMember(String profile, int member) {
        ActionProfileRuntime p = profile(profile);
        for (TableRuntime t : prog.tables().values()) {
            if (t.profile == p && (t.entries().stream().anyMatch(e -> e.member == member)
                    || (t.defaultEntry() != null && t.defaultEntry().member == member))) {
                throw new ControlException("member " + member + " of " + p.name + " is used by an entry of table " + t.name);
            }
        }
        profileCall(() -> {
            p.deleteMember(member);
            return null;
        });
    }

    @Override
    public int actionProfileCreateGroup(String profile) {
        ActionProfileRuntime p = profile(profile);
        return profileCall(p::createGroup);
    }

    @Override
    public void actionProfileDeleteGroup(String profile, int group) {
        ActionProfileRuntime p = profile(profile);
        for (TableRuntime t : prog.tables().values()) {
            if (t.profile == p && (t.entries().stream().anyMatch(e -> e.group == group) || t.defaultEntry().group == group)) {
                throw new ControlException("group " + group + " of " + p.name + " is used by an entry of table " + t.name);
            }
        }
        profileCall(() -> {
            p.deleteGroup(group);
            return null;
        });
    }

    @Override
    public void actionProfileAddMemberToGroup(String profile, int member, int group) {
        ActionProfileRuntime p = profile(profile);
        profileCall(() -> {
            p.addToGroup(group, member);
            return null;
        });
    }

    @Override
    public void actionProfileRemoveMemberFromGroup(String profile, int member, int group) {
        ActionProfileRuntime p = profile(profile);
        profileCall(() -> {
            p.removeFromGroup(group, member);
            return null;
        });
    }

    private static TableRuntime indirect(TableRuntime t) {
        if (t.profile == null) {
            throw new ControlException("table " + t.name + " has no action profile (use a direct entry)");
        }
        return t;
    }

    @Override
    public void addIndirectEntry(String table, List<Match> match, int priority, int handle, boolean group) {
        TableRuntime t = indirect(table(table));
        mutable(t);
        EntryEncoder.Encoded enc = EntryEncoder.encodeMatch(t, match, priority);
        ActionProfileRuntime.Member m = profileCall(() -> {
            if (group) {
                t.profile.requireGroup(handle);
                return null;
            }
            t.profile.requireMember(handle);
            return t.profile.member(handle);
        });
        if (t.find(enc.value(), enc.mask(), priority) != null) {
            throw new ControlException("an entry with this match already exists in table " + t.name);
        }
        if (t.entryCount() >= t.capacity) {
            throw new ControlException("table " + t.name + " is full (size " + t.capacity + ")");
        }
        ActionRuntime shown = m != null ? m.action : t.defaultEntry().action;
        TableEntry e = t.insert(enc.value(), enc.mask(), priority, enc.prefixLength(), shown, m != null ? m.args : new long[0]);
        e.member = group ? -1 : handle;
        e.group = group ? handle : -1;
    }

    @Override
    public void setIndirectDefault(String table, int handle, boolean group) {
        TableRuntime t = indirect(table(table));
        if (t.defaultConst) {
            throw new ControlException("table " + t.name + " has a const default_action");
        }
        ActionProfileRuntime.Member m = profileCall(() -> {
            if (group) {
                t.profile.requireGroup(handle);
                return null;
            }
            t.profile.requireMember(handle);
            return t.profile.member(handle);
        });
        TableEntry d = t.defaultEntry();
        t.setIndirectDefault(m != null ? m.action : d.action, m != null ? m.args : d.args, group ? -1 : handle, group ? handle : -1);
    }

    @Override
    public List<EntrySpec> readEntries(String table) {
        TableRuntime t = table(table);
        List<EntrySpec> out = new ArrayList<>();
        for (TableEntry e : t.entries()) {
            out.add(new EntrySpec(t.name, EntryEncoder.decodeMatch(t, e.value, e.mask), e.priority, e.action.name,
                    EntryEncoder.decodeArgs(e.action, e.args)));
        }
        return out;
    }

    @Override
    public void setDefaultAction(String table, String action, List<BigInteger> args) {
        TableRuntime t = table(table);
        if (t.defaultConst) {
            throw new ControlException("table " + t.name + " has a const default_action");
        }
        ActionRuntime a = EntryEncoder.action(t, action);
        if (t.actionScopes[t.actionIndex(a)].equals("tableonly")) {
            throw new ControlException("action " + a.name + " is @tableonly in table " + t.name + " and cannot be its default");
        }
        t.setDefault(a, EntryEncoder.encodeArgs(a, args));
    }

    @Override
    public EntrySpec readDefaultAction(String table) {
        TableRuntime t = table(table);
        TableEntry d = t.defaultEntry();
        return new EntrySpec(t.name, List.of(), 0, d.action.name, EntryEncoder.decodeArgs(d.action, d.args));
    }

    @Override
    public void clearTable(String table) {
        TableRuntime t = table(table);
        mutable(t);
        t.clear();
    }

    private RegisterArray register(String name) {
        RegisterArray r = prog.registers().get(name);
        if (r == null) {
            throw new ControlException("unknown register '" + name + "' (registers: " + prog.registers().keySet() + ")");
        }
        return r;
    }

    private static void checkIndex(String what, String name, int size, int index) {
        if (index < 0 || index >= size) {
            throw new ControlException(what + " " + name + ": index " + index + " out of range [0, " + (size - 1) + "]");
        }
    }

    private dev.innet.p4sim.runtime.ValueSet valueSet(String name) {
        dev.innet.p4sim.runtime.ValueSet v = prog.arch().valueSets.get(name);
        if (v == null) {
            throw new ControlException("unknown parser value set '" + name + "' (value sets: " + prog.arch().valueSets.keySet() + ")");
        }
        return v;
    }

    private static long valueSetMember(dev.innet.p4sim.runtime.ValueSet v, BigInteger value) {
        if (value.signum() < 0 || value.bitLength() > v.width) {
            throw new ControlException("value " + value + " does not fit in the " + v.width + " bits of value set " + v.name);
        }
        return value.longValue();
    }

    @Override
    public void valueSetAdd(String name, BigInteger value) {
        dev.innet.p4sim.runtime.ValueSet v = valueSet(name);
        if (!v.add(valueSetMember(v, value))) {
            throw new ControlException("value set " + v.name + " is full (size " + v.size + ")");
        }
    }

    @Override
    public void valueSetRemove(String name, BigInteger value) {
        dev.innet.p4sim.runtime.ValueSet v = valueSet(name);
        v.remove(valueSetMember(v, value));
    }

    @Override
    public List<BigInteger> valueSetRead(String name) {
        List<BigInteger> out = new ArrayList<>();
        for (long m : valueSet(name).members()) {
            out.add(new BigInteger(Long.toUnsignedString(m)));
        }
        return out;
    }

    @Override
    public void valueSetClear(String name) {
        valueSet(name).clear();
    }

    @Override
    public BigInteger registerRead(String name, int index) {
        RegisterArray r = register(name);
        checkIndex("register", r.name, r.size, index);
        return toBig(r.get(index), r.width);
    }

    @Override
    public List<BigInteger> registerRead(String name, int from, int to) {
        RegisterArray r = register(name);
        checkIndex("register", r.name, r.size, from);
        checkIndex("register", r.name, r.size, to);
        if (from > to) {
            throw new ControlException("register " + r.name + ": empty range " + from + ".." + to);
        }
        List<BigInteger> out = new ArrayList<>();
        for (int i = from; i <= to; i++) {
            out.add(toBig(r.get(i), r.width));
        }
        return out;
    }

    @Override
    public void registerWrite(String name, int index, BigInteger value) {
        registerWrite(name, index, index, value);
    }

    @Override
    public void registerWrite(String name, int from, int to, BigInteger value) {
        RegisterArray r = register(name);
        checkIndex("register", r.name, r.size, from);
        checkIndex("register", r.name, r.size, to);
        if (value.signum() < 0 || value.bitLength() > r.width) {
            throw new ControlException("value " + value + " does not fit register " + r.name + " (" + r.width + " bits)");
        }
        long[] words = new long[r.words];
        for (int k = 0; k < r.words; k++) {
            words[k] = value.shiftRight(64 * k).longValue();
        }
        for (int i = from; i <= to; i++) {
            r.set(i, words);
        }
    }

    @Override
    public void registerReset(String name) {
        register(name).reset();
    }

    private CounterArray counter(String name) {
        CounterArray c = prog.counters().get(name);
        if (c == null) {
            throw new ControlException("unknown counter '" + name + "' (counters: " + prog.counters().keySet() + ")");
        }
        return c;
    }

    @Override
    public CounterValue counterRead(String name, int index) {
        CounterArray c = counter(name);
        checkIndex("counter", c.name, c.size, index);
        return new CounterValue(c.packets(index), c.bytes(index));
    }

    @Override
    public void counterWrite(String name, int index, CounterValue value) {
        CounterArray c = counter(name);
        checkIndex("counter", c.name, c.size, index);
        c.set(index, value.packets(), value.bytes());
    }

    @Override
    public void counterReset(String name) {
        counter(name).reset();
    }

    @Override
    public CounterValue directCounterRead(String table, List<Match> match, int priority) {
        TableRuntime t = table(table);
        if (!t.directCounter) {
            throw new ControlException("table " + t.name + " has no direct counter");
        }
        TableEntry e = existing(t, match, priority);
        return new CounterValue(e.packets, e.bytes);
    }

    private dev.innet.p4sim.runtime.MeterArray meter(String name) {
        dev.innet.p4sim.runtime.MeterArray m = prog.meters().get(name);
        if (m == null) {
            throw new ControlException("unknown meter '" + name + "' (meters: " + prog.meters().keySet() + ")");
        }
        return m;
    }

    @Override
    public void meterSet(String name, int index, dev.innet.switchapi.MeterConfig c) {
        dev.innet.p4sim.runtime.MeterArray m = meter(name);
        checkIndex("meter", m.name, m.size, index);
        m.state(index).configure(c.committedRate(), c.committedBurst(), c.peakRate(), c.peakBurst(), pipeline.nowMicros());
    }

    @Override
    public dev.innet.switchapi.MeterConfig meterRead(String name, int index) {
        dev.innet.p4sim.runtime.MeterArray m = meter(name);
        checkIndex("meter", m.name, m.size, index);
        dev.innet.p4sim.runtime.MeterState st = m.state(index);
        return st.configured() ? new dev.innet.switchapi.MeterConfig(st.committedRate(), st.committedBurst(),
                st.peakRate(), st.peakBurst()) : null;
    }

    @Override
    public void directMeterSet(String table, List<Match> match, int priority, dev.innet.switchapi.MeterConfig c) {
        TableRuntime t = table(table);
        if (t.meterColorSlot < 0) {
            throw new ControlException("table " + t.name + " has no direct meter");
        }
        existing(t, match, priority).meter.configure(c.committedRate(), c.committedBurst(), c.peakRate(), c.peakBurst(),
                pipeline.nowMicros());
    }

    @Override
    public void multicastGroupSet(int group, List<Replica> replicas) {
        if (group <= 0 || group > 0xFFFF) {
            throw new ControlException("multicast group " + group + " out of range [1, 65535]");
        }
        for (Replica r : replicas) {
            if (r.port() < 0 || r.port() > 510) {
                throw new ControlException("multicast replica port " + r.port() + " out of range [0, 510]");
            }
            if (r.rid() < 0 || r.rid() > 0xFFFF) {
                throw new ControlException("replication id " + r.rid() + " out of range [0, 65535]");
            }
        }
        pipeline.multicastGroups.put(group, List.copyOf(replicas));
    }

    @Override
    public void multicastGroupDelete(int group) {
        if (pipeline.multicastGroups.remove(group) == null) {
            throw new ControlException("multicast group " + group + " does not exist");
        }
    }

    @Override
    public void cloneSessionSet(int session, int port) {
        if (session < 0 || session > 0xFFFF) {
            throw new ControlException("clone session " + session + " out of range [0, 65535]");
        }
        if (port < 0 || port > 510) {
            throw new ControlException("clone session port " + port + " out of range [0, 510]");
        }
        pipeline.cloneSessions.put(session, port);
    }

    @Override
    public void cloneSessionDelete(int session) {
        if (pipeline.cloneSessions.remove(session) == null) {
            throw new ControlException("clone session " + session + " does not exist");
        }
    }

    @Override
    public void packetOut(byte[] frame) {
        packetOutInjector.accept(frame);
    }

    @Override
    public void onPacketIn(Consumer<PacketIn> sink) {
        Consumer<PacketIn> prev = pipeline.packetInSink;
        pipeline.packetInSink = p -> {
            prev.accept(p);
            sink.accept(p);
        };
    }

    @Override
    public void onDigest(Consumer<Digest> sink) {
        Consumer<Digest> prev = pipeline.digestSink;
        pipeline.digestSink = d -> {
            prev.accept(d);
            sink.accept(d);
        };
    }

    static BigInteger toBig(long[] words, int width) {
        BigInteger v = BigInteger.ZERO;
        for (int k = words.length - 1; k >= 0; k--) {
            v = v.shiftLeft(64).or(new BigInteger(Long.toUnsignedString(words[k])));
        }
        return v.and(BigInteger.ONE.shiftLeft(width).subtract(BigInteger.ONE));
    }
}
