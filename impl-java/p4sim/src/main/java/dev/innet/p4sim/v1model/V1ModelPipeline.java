package dev.innet.p4sim.v1model;

import dev.innet.p4sim.compiler.CompiledProgram;
import dev.innet.switchapi.Digest;
import dev.innet.switchapi.PacketIn;
import dev.innet.switchapi.Replica;
import dev.innet.p4sim.runtime.ArchState;
import dev.innet.p4sim.runtime.Frame;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The v1model packet path, following bmv2 simple_switch's after-ingress and after-egress rules:
 * parser, verifyChecksum, ingress; then I2E clone, digests, resubmit, else multicast, else drop
 * (egress_spec == 511), else unicast; per copy egress, computeChecksum, deparser; then E2E clone,
 * drop, recirculate, else transmit. Single-threaded and synchronous: {@link #process} returns after
 * every copy of the packet has left, so a simulation sees a deterministic order (the packet's own
 * copies first, then clones, then resubmitted/recirculated passes, in request order).
 */
public final class V1ModelPipeline {
    public static final int NORMAL = 0;
    public static final int INGRESS_CLONE = 1;
    public static final int EGRESS_CLONE = 2;
    public static final int RECIRC = 4;
    public static final int REPLICATION = 5;
    public static final int RESUBMIT = 6;

    private final CompiledProgram prog;
    private final SwitchConfig config;
    private final Frame f;
    private final ArchState arch;
    public final SwitchStats stats = new SwitchStats();
    final Map<Integer, List<Replica>> multicastGroups = new HashMap<>();
    final Map<Integer, Integer> cloneSessions = new HashMap<>();
    Consumer<PacketIn> packetInSink = p -> { };
    Consumer<Digest> digestSink = d -> { };
    /** H, M and standard_metadata are the first slots of the frame: [0, phvSlots). */
    private final int phvSlots;
    private final long[] phvSnapshot;
    private final ArrayDeque<Job> jobs = new ArrayDeque<>();
    /** Jobs done with, reused: a warm switch allocates nothing for resubmit, recirculate or clones. */
    private final ArrayDeque<Job> freeJobs = new ArrayDeque<>();
    /** Slots of the largest field list (the size of every job's preserved values). */
    private final int maxFieldListSlots;
    /**
     * The field lists by id without boxing the id per packet: sorted ids and, per id, its slot ranges
     * as {@code {start, count}} pairs.
     */
    private final int[] fieldListIds;
    private final int[][][] fieldListRanges;
    /** truncate() requested during the ingress pass whose copies are in egress (NONE for clones). */
    private long ingressTruncate = ArchState.NONE;

    // standard_metadata slots
    private final int smIngressPort;
    private final int smEgressSpec;
    private final int smEgressPort;
    private final int smInstanceType;
    private final int smPacketLength;
    private final int smMcastGrp;
    private final int smEgressRid;
    private final int smParserError;
    private final int smChecksumError;
    private final int smIngressTs;
    private final int smEgressTs;

    /**
     * A pending pass: ingress (resubmit/recirculate: {@code bytes[0, len)} is the packet) or egress (clone:
     * {@code bytes[0, len)} is the original packet for I2E, which is parsed again as bmv2 does, or the
     * payload after the copied headers {@code headers} for E2E). Pooled: its arrays are reused.
     */
    private static final class Job {
        boolean ingress;
        int port;
        int instanceType;
        byte[] bytes = new byte[0];
        int len;
        /** The field list's values when {@code fieldList >= 0}, else unused. */
        final long[] preserved;
        int fieldList;
        int ingressPort;
        /** E2E clones: the header slots as egress left them. */
        final long[] headers;

        Job(int preservedSlots, int headerSlots) {
            preserved = new long[preservedSlots];
            headers = new long[headerSlots];
        }

        void setBytes(byte[] from, int off, int n) {
            if (bytes.length < n) {
                bytes = new byte[Math.max(n, 2 * bytes.length)];
            }
            System.arraycopy(from, off, bytes, 0, n);
            len = n;
        }
    }

    public V1ModelPipeline(CompiledProgram prog, SwitchConfig config) {
        this.prog = prog;
        this.config = config;
        this.f = new Frame(prog.slots(), config.maxPacketBytes());
        this.arch = prog.arch();
        this.phvSlots = prog.smBase() + prog.smSlots();
        if (prog.hdrBase() != 0 || prog.metaBase() != prog.hdrSlots() || prog.smBase() != prog.metaBase() + prog.metaSlots()) {
            throw new IllegalStateException("compiler layout: H, M and standard_metadata must be contiguous at slot 0");
        }
        this.phvSnapshot = new long[phvSlots];
        int widest = 0;
        java.util.TreeMap<Integer, List<int[]>> byId = new java.util.TreeMap<>(prog.fieldLists());
        fieldListIds = new int[byId.size()];
        fieldListRanges = new int[byId.size()][][];
        int k = 0;
        for (Map.Entry<Integer, List<int[]>> e : byId.entrySet()) {
            int n = 0;
            for (int[] r : e.getValue()) {
                n += r[1];
            }
            widest = Math.max(widest, n);
            fieldListIds[k] = e.getKey();
            fieldListRanges[k++] = e.getValue().toArray(int[][]::new);
        }
        this.maxFieldListSlots = widest;
        smIngressPort = prog.sm("ingress_port");
        smEgressSpec = prog.sm("egress_spec");
        smEgressPort = prog.sm("egress_port");
        smInstanceType = prog.sm("instance_type");
        smPacketLength = prog.sm("packet_length");
        smMcastGrp = prog.sm("mcast_grp");
        smEgressRid = prog.sm("egress_rid");
        smParserError = prog.sm("parser_error");
        smChecksumError = prog.sm("checksum_error");
        smIngressTs = prog.sm("ingress_global_timestamp");
        smEgressTs = prog.sm("egress_global_timestamp");
    }

    /** Runs one received frame through the switch; every resulting packet goes to {@code sink}. */
    public void process(int port, byte[] frame, int off, int len, PacketSink sink) {
        stats.received++;
        if (len > f.in.length) {
            stats.oversize++;
            return;
        }
        System.arraycopy(frame, off, f.in, 0, len);
        ingressPass(port & 0x1FF, len, NORMAL, null, -1, sink);
        int passes = 0;
        while (!jobs.isEmpty()) {
            Job j = jobs.poll();
            if (j.ingress) {
                if (++passes > config.maxPassesPerPacket()) {
                    stats.loopLimitDrops++;
                } else if (j.len > f.in.length) {
                    stats.oversize++; // a recirculated packet grew past the configured maximum
                } else {
                    System.arraycopy(j.bytes, 0, f.in, 0, j.len);
                    ingressPass(j.port, j.len, j.instanceType, j.fieldList >= 0 ? j.preserved : null, j.fieldList, sink);
                }
            } else {
                cloneEgressPass(j, sink);
            }
            freeJobs.add(j);
        }
    }

    /** A job from the pool (a new one only when more are pending than ever before). */
    private Job job(boolean ingress, int port, int instanceType, int fieldList, int ingressPort) {
        Job j = freeJobs.poll();
        if (j == null) {
            j = new Job(maxFieldListSlots, prog.hdrSlots());
        }
        j.ingress = ingress;
        j.port = port;
        j.instanceType = instanceType;
        j.ingressPort = ingressPort;
        j.fieldList = capture(fieldList, j.preserved) ? fieldList : -1;
        return j;
    }

    private void resetPhv() {
        Arrays.fill(f.s, 0, phvSlots, 0L);
        f.flow = Frame.NORMAL;
        arch.clear();
    }

    /**
     * One ingress pass. {@code port} is the port the packet arrived on, kept with the packet across its passes
     * (an I2E clone made in a later pass is parsed again with it, as bmv2 does). The pass's standard_metadata
     * shows it only when the packet is new: bmv2 sets {@code ingress_port} and {@code ingress_global_timestamp}
     * in {@code receive_} alone, and a resubmitted or recirculated copy starts from {@code reset_metadata()}
     * plus its field list ({@code copy_field_list_and_set_type}, the recirculate branch of {@code egress_thread}),
     * so both read 0 there unless preserved.
     */
    private void ingressPass(int port, int len, int instanceType, long[] preserved, int fieldList, PacketSink sink) {
        resetPhv();
        long[] s = f.s;
        boolean fresh = instanceType == NORMAL;
        s[smIngressPort] = fresh ? port : 0;
        s[smInstanceType] = instanceType;
        s[smPacketLength] = len;
        arch.nowMicros = config.clockMicros().getAsLong();
        s[smIngressTs] = fresh ? arch.nowMicros & 0xFFFFFFFFFFFFL : 0;
        restore(preserved, fieldList);
        f.inLen = len;
        f.cursorBits = 0;
        f.parserError = 0;
        prog.parser().run(f);
        if (f.flow == Frame.REJECT) {
            s[smParserError] = f.parserError;
            stats.parserErrors++;
        }
        f.flow = Frame.NORMAL;
        int payloadStart = f.cursorBits >>> 3;
        setPayload(f.in, payloadStart, len - payloadStart);
        prog.verifyChecksum().run(f);
        f.flow = Frame.NORMAL;
        if (s[smChecksumError] != 0) {
            stats.checksumErrors++;
        }
        prog.ingress().run(f);
        f.flow = Frame.NORMAL;
        afterIngress(port, len, payloadStart, sink);
    }

    private void afterIngress(int port, int len, int payloadStart, PacketSink sink) {
        long[] s = f.s;
        ingressTruncate = arch.truncateLength;
        if (arch.cloneSession != ArchState.NONE) {
            Integer clonePort = cloneSessions.get(arch.cloneSession);
            if (clonePort == null) {
                stats.cloneSessionMissing++;
            } else {
                stats.cloned++;
                // I2E: the packet as it began this ingress pass, metadata reset except the field list
                Job j = job(false, clonePort, INGRESS_CLONE, arch.cloneFieldList, port);
                j.setBytes(f.in, 0, len);
                jobs.add(j);
            }
        }
        List<ArchState.DigestRecord> digests = arch.digests;
        for (int i = 0; i < digests.size(); i++) {
            ArchState.DigestRecord d = digests.get(i);
            stats.digests++;
            digestSink.accept(new Digest(d.receiver(), d.values()));
        }
        if (arch.resubmitFieldList != ArchState.NONE) {
            stats.resubmitted++;
            Job j = job(true, port, RESUBMIT, arch.resubmitFieldList, port);
            j.setBytes(f.in, 0, len);
            jobs.add(j);
            return;
        }
        int group = (int) s[smMcastGrp];
        if (group != 0) {
            List<Replica> replicas = multicastGroups.get(group);
            if (replicas == null) {
                stats.multicastGroupMissing++;
                return;
            }
            System.arraycopy(s, 0, phvSnapshot, 0, phvSlots);
            for (int i = 0; i < replicas.size(); i++) {
                Replica r = replicas.get(i);
                System.arraycopy(phvSnapshot, 0, s, 0, phvSlots);
                stats.multicastReplicas++;
                s[smEgressRid] = r.rid();
                s[smInstanceType] = REPLICATION;
                egressPass(r.port(), f.in, payloadStart, f.inLen - payloadStart, port, sink);
            }
            return;
        }
        if (s[smEgressSpec] == SwitchConfig.DROP_PORT) {
            stats.dropped++;
            return;
        }
        // bmv2 (simple_switch.cpp, end of ingress_thread) sets instance_type to NORMAL for every unicast
        // copy it enqueues: a resubmitted or recirculated packet shows 6 or 4 in ingress, 0 in egress
        s[smInstanceType] = NORMAL;
        egressPass((int) s[smEgressSpec], f.in, payloadStart, f.inLen - payloadStart, port, sink);
    }

    /**
     * I2E clones: bmv2 parses the original packet again (parser and checksum verification), clears all
     * metadata, then copies the field list. E2E clones: the headers as egress left them, metadata cleared
     * except the field list, and the same payload.
     */
    private void cloneEgressPass(Job j, PacketSink sink) {
        resetPhv();
        ingressTruncate = ArchState.NONE;
        long[] s = f.s;
        byte[] payload;
        int payloadOff;
        int length;
        if (j.instanceType == INGRESS_CLONE) {
            length = j.len;
            System.arraycopy(j.bytes, 0, f.in, 0, length);
            f.inLen = length;
            f.cursorBits = 0;
            f.parserError = 0;
            // bmv2 sets ingress_port for the parse again ("parsers can branch on the ingress port"), then
            // resets all metadata: egress sees ingress_port 0 unless the field list keeps it
            s[smIngressPort] = j.ingressPort;
            prog.parser().run(f);
            int error = f.flow == Frame.REJECT ? f.parserError : 0;
            f.flow = Frame.NORMAL;
            setPayload(f.in, f.cursorBits >>> 3, length - (f.cursorBits >>> 3));
            prog.verifyChecksum().run(f);
            f.flow = Frame.NORMAL;
            Arrays.fill(s, prog.metaBase(), phvSlots, 0L);
            s[smParserError] = error;
            payload = f.in;
            payloadOff = f.cursorBits >>> 3;
        } else {
            System.arraycopy(j.headers, 0, s, prog.hdrBase(), j.headers.length);
            payload = j.bytes;
            payloadOff = 0;
            length = j.len;
        }
        s[smInstanceType] = j.instanceType;
        s[smPacketLength] = length;
        s[smEgressSpec] = j.port;
        restore(j.fieldList >= 0 ? j.preserved : null, j.fieldList);
        s[smInstanceType] = j.instanceType;
        int payloadLen = (payload == f.in ? f.inLen : j.len) - payloadOff;
        egressPass(j.port, payload, payloadOff, payloadLen, j.ingressPort, sink);
    }

    /** What the *_with_payload checksums see as the payload (bmv2: the bytes the parser did not consume). */
    private void setPayload(byte[] buf, int off, int len) {
        f.payload = buf;
        f.payloadOff = off;
        f.payloadLen = Math.max(0, len);
    }

    private void egressPass(int port, byte[] payload, int payloadOff, int payloadLen, int ingressPort, PacketSink sink) {
        long[] s = f.s;
        s[smEgressPort] = port;
        // bmv2 (egress_thread): "here we initialize egress_spec to a value different from drop_port", so
        // only a drop in egress drops the copy (a multicast after mark_to_drop in ingress still goes out)
        s[smEgressSpec] = SwitchConfig.DROP_PORT + 1;
        long now = config.clockMicros().getAsLong();
        s[smEgressTs] = now & 0xFFFFFFFFFFFFL;
        arch.clear();
        arch.nowMicros = now;
        arch.truncateLength = ingressTruncate; // a truncate() in ingress applies to every copy it sends
        prog.egress().run(f);
        f.flow = Frame.NORMAL;
        // E2E clone: the headers as egress left them, before computeChecksum and the deparser
        Job e2e = null;
        Integer clonePort = arch.cloneSession == ArchState.NONE ? null : cloneSessions.get(arch.cloneSession);
        if (clonePort != null) {
            e2e = job(false, clonePort, EGRESS_CLONE, arch.cloneFieldList, ingressPort);
            System.arraycopy(s, prog.hdrBase(), e2e.headers, 0, prog.hdrSlots());
        }
        setPayload(payload, payloadOff, payloadLen);
        prog.computeChecksum().run(f);
        f.flow = Frame.NORMAL;
        f.outLen = 0;
        prog.deparser().run(f);
        f.flow = Frame.NORMAL;
        f.ensureOut(payloadLen);
        System.arraycopy(payload, payloadOff, f.out, f.outLen, payloadLen);
        f.outLen += payloadLen;
        if (arch.truncateLength >= 0 && arch.truncateLength < f.outLen) {
            f.outLen = (int) arch.truncateLength; // bmv2: truncate applies to the deparsed packet
        }
        if (arch.cloneSession != ArchState.NONE) {
            if (e2e == null) {
                stats.cloneSessionMissing++;
            } else {
                stats.cloned++;
                // E2E: the headers as egress left them, the same payload, the field list's final egress values
                if (e2e.fieldList >= 0) {
                    capture(e2e.fieldList, e2e.preserved);
                }
                e2e.setBytes(payload, payloadOff, payloadLen);
                jobs.add(e2e);
            }
        }
        if (s[smEgressSpec] == SwitchConfig.DROP_PORT) {
            stats.dropped++;
            return;
        }
        if (arch.recirculateFieldList != ArchState.NONE) {
            stats.recirculated++;
            Job j = job(true, ingressPort, RECIRC, arch.recirculateFieldList, ingressPort);
            j.setBytes(f.out, 0, f.outLen);
            jobs.add(j);
            return;
        }
        if (port == config.cpuPort()) {
            stats.packetIns++;
            packetInSink.accept(new PacketIn(Arrays.copyOf(f.out, f.outLen)));
            return;
        }
        stats.transmitted++;
        sink.emit(port, f.out, 0, f.outLen);
    }

    /** The switch clock now (meters configured by the control plane start at this time). */
    long nowMicros() {
        return config.clockMicros().getAsLong();
    }

    /** A field list's slot ranges, or null when there is no list of that id. */
    private int[][] ranges(int fieldList) {
        int i = fieldList < 0 ? -1 : Arrays.binarySearch(fieldListIds, fieldList);
        return i < 0 ? null : fieldListRanges[i];
    }

    /** Copies a field list's values now into {@code out}, to carry into a new pass; false if there is no such list. */
    private boolean capture(int fieldList, long[] out) {
        int[][] ranges = ranges(fieldList);
        if (ranges == null) {
            return false;
        }
        int k = 0;
        for (int[] r : ranges) {
            System.arraycopy(f.s, r[0], out, k, r[1]);
            k += r[1];
        }
        return true;
    }

    private void restore(long[] values, int fieldList) {
        if (values == null) {
            return;
        }
        int[][] ranges = ranges(fieldList);
        int k = 0;
        for (int[] r : ranges) {
            System.arraycopy(values, k, f.s, r[0], r[1]);
            k += r[1];
        }
    }
}
