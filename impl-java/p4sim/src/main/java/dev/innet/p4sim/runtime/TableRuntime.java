package dev.innet.p4sim.runtime;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * A compiled match-action table. Compiled key expressions fill {@link #keyBuf}; {@link #apply}
 * finds the winning entry and runs its action. Exact-only tables use a hash index (no allocation
 * per lookup); the others scan entries in priority order: highest {@code priority} first for tables
 * with ternary/range/optional keys (P4Runtime convention), longest prefix first for lpm tables.
 */
public final class TableRuntime {
    public enum MatchKind { EXACT, TERNARY, LPM, RANGE, OPTIONAL }

    public final String name;
    public final String[] keyNames;
    public final MatchKind[] kinds;
    public final int[] widths;
    public final int[] wordOffsets;
    public final int keyWords;
    public final long[] keyBuf;
    public final ActionRuntime[] actions;
    /** Per action: "defaultonly" (not for entries), "tableonly" (not as default) or "". */
    public String[] actionScopes;
    public final int capacity;
    public final boolean usesPriority;
    public final boolean exactOnly;
    private final boolean hasRange;
    public boolean constEntries;
    public boolean defaultConst;
    public boolean directCounter;
    /** Direct meter: the name of the direct_meter instance, the slot its color goes to, whether it counts bytes. */
    public String directMeterName;
    public int meterColorSlot = -1;
    public boolean meterBytes;
    public ArchState arch;
    public int packetLengthSlot = -1;
    /** The table's action_profile/action_selector (entries refer to its members and groups), or null. */
    public ActionProfileRuntime profile;
    /** For an action selector: the hash of the selector keys, computed when a group is hit. */
    public java.util.function.ToLongFunction<Frame> selectorHash;
    private TableEntry defaultEntry;
    private final ExactIndex exactIndex;
    private final List<TableEntry> ordered = new ArrayList<>();
    private long seq;

    public TableRuntime(String name, String[] keyNames, MatchKind[] kinds, int[] widths, ActionRuntime[] actions, int capacity) {
        this.name = name;
        this.keyNames = keyNames;
        this.kinds = kinds;
        this.widths = widths;
        this.actions = actions;
        this.capacity = capacity;
        this.wordOffsets = new int[kinds.length];
        int w = 0;
        boolean prio = false;
        boolean exact = true;
        boolean range = false;
        for (int i = 0; i < kinds.length; i++) {
            wordOffsets[i] = w;
            w += Wide.words(widths[i]);
            prio |= kinds[i] == MatchKind.TERNARY || kinds[i] == MatchKind.RANGE || kinds[i] == MatchKind.OPTIONAL;
            exact &= kinds[i] == MatchKind.EXACT;
            range |= kinds[i] == MatchKind.RANGE;
        }
        this.keyWords = w;
        this.keyBuf = new long[Math.max(1, w)];
        this.usesPriority = prio;
        this.exactOnly = exact && kinds.length > 0;
        this.hasRange = range;
        this.exactIndex = new ExactIndex(w);
        this.actionScopes = new String[actions.length];
        java.util.Arrays.fill(actionScopes, "");
    }

    public int actionIndex(ActionRuntime a) {
        for (int i = 0; i < actions.length; i++) {
            if (actions[i] == a) {
                return i;
            }
        }
        return -1;
    }

    public ActionRuntime action(String actionName) {
        for (ActionRuntime a : actions) {
            if (a.name.equals(actionName) || a.name.endsWith("." + actionName)) {
                return a;
            }
        }
        return null;
    }

    /** Looks up {@link #keyBuf}, runs the winning (or default) action; returns {@code actionIndex << 1 | hit}. */
    public long apply(Frame f) {
        TableEntry e = lookup();
        boolean hit = e != null;
        if (hit) {
            if (directCounter) {
                e.packets++;
                e.bytes += f.s[packetLengthSlot];
            }
            if (meterColorSlot >= 0) {
                f.s[meterColorSlot] = e.meter.execute(meterBytes ? f.s[packetLengthSlot] : 1, arch.nowMicros);
            }
        } else {
            e = defaultEntry;
            if (meterColorSlot >= 0) {
                f.s[meterColorSlot] = MeterState.GREEN;
            }
        }
        if (profile != null && (e.member >= 0 || e.group >= 0)) {
            return applyIndirect(f, e, hit);
        }
        e.action.invoke(f, e.args);
        return ((long) e.actionIndex << 1) | (hit ? 1 : 0);
    }

    /**
     * An entry (or the default) of a table with an action profile: run its member, or the member its
     * group selects now.
     */
    private long applyIndirect(Frame f, TableEntry e, boolean hit) {
        ActionProfileRuntime.Member m = e.group >= 0 ? profile.pick(e.group, selectorHash.applyAsLong(f)) : profile.member(e.member);
        if (m == null) {
            // an empty group: a hit runs the default instead, as a miss; an empty default group does nothing
            if (hit) {
                return apply(defaultEntry.member >= 0 || defaultEntry.group >= 0 ? defaultEntry : null, f);
            }
            return (long) defaultEntry.actionIndex << 1;
        }
        m.action.invoke(f, m.args);
        return ((long) actionIndex(m.action) << 1) | (hit ? 1 : 0);
    }

    /** The default entry run as a miss (direct, or through the profile when it refers to a member or group). */
    private long apply(TableEntry indirectDefault, Frame f) {
        if (indirectDefault != null) {
            return applyIndirect(f, indirectDefault, false);
        }
        defaultEntry.action.invoke(f, defaultEntry.args);
        return (long) defaultEntry.actionIndex << 1;
    }

    /** Makes the default entry refer to a member or a group of the table's profile. */
    public void setIndirectDefault(ActionRuntime shown, long[] args, int member, int group) {
        setDefault(shown, args);
        defaultEntry.member = member;
        defaultEntry.group = group;
    }

    TableEntry lookup() {
        if (exactOnly) {
            return exactIndex.get(keyBuf);
        }
        for (int n = ordered.size(), i = 0; i < n; i++) {
            TableEntry e = ordered.get(i);
            if (matches(e)) {
                return e;
            }
        }
        return null;
    }

    private boolean matches(TableEntry e) {
        if (!hasRange) {
            for (int j = 0; j < keyWords; j++) {
                if ((keyBuf[j] & e.mask[j]) != e.value[j]) {
                    return false;
                }
            }
            return true;
        }
        for (int i = 0; i < kinds.length; i++) {
            int off = wordOffsets[i];
            int n = Wide.words(widths[i]);
            if (kinds[i] == MatchKind.RANGE) {
                if (Wide.compareUnsigned(keyBuf, off, e.value, off, n) < 0 || Wide.compareUnsigned(keyBuf, off, e.mask, off, n) > 0) {
                    return false;
                }
            } else {
                for (int j = off; j < off + n; j++) {
                    if ((keyBuf[j] & e.mask[j]) != e.value[j]) {
                        return false;
                    }
                }
            }
        }
        return true;
    }

    // ---------------------------------------------------------------- management (control plane)

    public TableEntry defaultEntry() {
        return defaultEntry;
    }

    public void setDefault(ActionRuntime a, long[] args) {
        TableEntry e = new TableEntry(new long[0], new long[0], 0, 0, a, args, 0);
        e.actionIndex = actionIndex(a);
        defaultEntry = e;
    }

    public int entryCount() {
        return exactOnly ? exactIndex.size() : ordered.size();
    }

    /** Entries in match order; exact tables (no order among entries) in installation order. */
    public List<TableEntry> entries() {
        if (exactOnly) {
            List<TableEntry> all = exactIndex.values();
            all.sort(Comparator.comparingLong(e -> e.seq));
            return all;
        }
        return List.copyOf(ordered);
    }

    /** Finds the installed entry with exactly this match specification, or null. */
    public TableEntry find(long[] value, long[] mask, int priority) {
        if (exactOnly) {
            return value.length < keyWords ? null : exactIndex.get(value);
        }
        for (TableEntry e : ordered) {
            if (Arrays.equals(e.value, value) && Arrays.equals(e.mask, mask) && (!usesPriority || e.priority == priority)) {
                return e;
            }
        }
        return null;
    }

    /** Installs an entry whose match spec was validated by the caller; false if it already exists or the table is full. */
    public TableEntry insert(long[] value, long[] mask, int priority, int prefixLength, ActionRuntime a, long[] args) {
        TableEntry e = new TableEntry(value, mask, priority, prefixLength, a, args, seq++);
        e.actionIndex = actionIndex(a);
        if (exactOnly) {
            exactIndex.put(value, e);
        } else {
            ordered.add(e);
            ordered.sort(usesPriority
                    ? Comparator.comparingInt((TableEntry x) -> -x.priority).thenComparingLong(x -> x.seq)
                    : Comparator.comparingInt((TableEntry x) -> -x.prefixLength).thenComparingLong(x -> x.seq));
        }
        return e;
    }

    public boolean remove(TableEntry e) {
        if (exactOnly) {
            return exactIndex.remove(e.value) != null;
        }
        return ordered.remove(e);
    }

    public void clear() {
        exactIndex.clear();
        ordered.clear();
    }
}
