package dev.innet.p4sim.runtime;

/**
 * One installed table entry. Per key field: exact/ternary/lpm/optional keys match when
 * {@code (key & mask) == value}; range keys when {@code lo <= key <= hi} (stored in value/mask).
 */
public final class TableEntry {
    public final long[] value;
    public final long[] mask;
    public final int priority;
    public final int prefixLength;
    public ActionRuntime action;
    /** Index of {@link #action} in the owning table's action list (what action_run reports). */
    public int actionIndex;
    public long[] args;
    public long packets;
    public long bytes;
    /** The entry's direct meter, when its table has one. */
    public final MeterState meter = new MeterState();
    /** In a table with an action profile: the member this entry runs, or the group it selects from (else -1). */
    public int member = -1;
    public int group = -1;
    /** Insertion sequence, to keep equal priorities in installation order. */
    final long seq;

    public TableEntry(long[] value, long[] mask, int priority, int prefixLength, ActionRuntime action, long[] args, long seq) {
        this.value = value;
        this.mask = mask;
        this.priority = priority;
        this.prefixLength = prefixLength;
        this.action = action;
        this.args = args;
        this.seq = seq;
    }
}
