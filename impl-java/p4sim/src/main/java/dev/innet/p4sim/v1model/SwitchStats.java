package dev.innet.p4sim.v1model;

/** Packet counters of one switch instance, for tests, fault campaigns and the benchmark. */
public final class SwitchStats {
    public long received;
    public long transmitted;
    /** Packets dropped because egress_spec was the drop port after ingress or egress. */
    public long dropped;
    /** Packets whose parser ended in reject (they still go through ingress, as in bmv2). */
    public long parserErrors;
    public long checksumErrors;
    /** Frames larger than the configured maximum, dropped before parsing. */
    public long oversize;
    public long resubmitted;
    public long recirculated;
    /** Resubmit/recirculate requests refused because the per-packet limit was reached. */
    public long loopLimitDrops;
    public long cloned;
    /** Clone requests naming a session the control plane has not configured. */
    public long cloneSessionMissing;
    public long multicastReplicas;
    /** Packets for a multicast group the control plane has not configured. */
    public long multicastGroupMissing;
    public long packetIns;
    public long digests;

    @Override
    public String toString() {
        return "received=" + received + " transmitted=" + transmitted + " dropped=" + dropped
                + " parserErrors=" + parserErrors + " checksumErrors=" + checksumErrors + " oversize=" + oversize
                + " resubmitted=" + resubmitted + " recirculated=" + recirculated + " loopLimitDrops=" + loopLimitDrops
                + " cloned=" + cloned + " multicastReplicas=" + multicastReplicas + " packetIns=" + packetIns
                + " digests=" + digests;
    }
}
