package dev.innet.p4sim.runtime;

/** A v1model {@code meter(size, type)}: one {@link MeterState} per index. */
public final class MeterArray {
    public final String name;
    public final int size;
    public final boolean bytes;
    private final MeterState[] states;
    public long outOfRangeAccesses;

    public MeterArray(String name, int size, boolean bytes) {
        this.name = name;
        this.size = size;
        this.bytes = bytes;
        this.states = new MeterState[size];
        for (int i = 0; i < size; i++) {
            states[i] = new MeterState();
        }
    }

    /** Out-of-range indices mark GREEN (and are counted), as an unconfigured meter would. */
    public int execute(long index, long packetBytes, long nowMicros) {
        if (index < 0 || index >= size) {
            outOfRangeAccesses++;
            return MeterState.GREEN;
        }
        return states[(int) index].execute(bytes ? packetBytes : 1, nowMicros);
    }

    public MeterState state(int index) {
        return states[index];
    }
}
