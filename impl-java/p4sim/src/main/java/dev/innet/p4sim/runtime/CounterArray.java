package dev.innet.p4sim.runtime;

import java.util.Arrays;

/** A v1model {@code counter(size, type)}: packet and byte counts per index. */
public final class CounterArray {
    public enum Kind { PACKETS, BYTES, PACKETS_AND_BYTES }

    public final String name;
    public final int size;
    public final Kind kind;
    final long[] packets;
    final long[] bytes;
    public long outOfRangeAccesses;

    public CounterArray(String name, int size, Kind kind) {
        this.name = name;
        this.size = size;
        this.kind = kind;
        this.packets = new long[size];
        this.bytes = new long[size];
    }

    public void count(long index, long packetBytes) {
        if (index < 0 || index >= size) {
            outOfRangeAccesses++;
            return;
        }
        packets[(int) index]++;
        bytes[(int) index] += packetBytes;
    }

    public long packets(int index) {
        return packets[index];
    }

    public long bytes(int index) {
        return bytes[index];
    }

    public void set(int index, long pkts, long byteCount) {
        packets[index] = pkts;
        bytes[index] = byteCount;
    }

    public void reset() {
        Arrays.fill(packets, 0L);
        Arrays.fill(bytes, 0L);
    }
}
