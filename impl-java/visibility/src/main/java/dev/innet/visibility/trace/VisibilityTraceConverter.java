package dev.innet.visibility.trace;

import dev.innet.sim.simulated.Simulation;
import dev.innet.tracecheck.TraceFormatException;
import dev.innet.tracecheck.SwitchUdpSteps;
import dev.innet.tracecheck.TraceLine;
import dev.innet.visibility.VisibilityTraceEvents;
import dev.innet.visibility.wire.LogAddress;
import dev.innet.visibility.wire.VisExt;
import dev.innet.visibility.wire.VisOp;
import dev.innet.wire.InnetMessage;
import dev.innet.wire.WireException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Turns one visibility run's trace events into the event sequence specs/visibility/VisibilityTrace.tla walks
 * (docs/conformance.md, "Trace validation: Visibility"). The switch's steps come from the rack's record of the
 * frames p4/visibility.p4 processed ({@code switchUdpIn}) and sent in the same step ({@code switchUdpOut}):
 *
 * <ul>
 *   <li>a data node's WRITE_REPLY sent on to the client: {@code swWriteReply} (install: the switch marked it
 *       VISIBLE; else a fallback);</li>
 *   <li>a metadata node's META_UPDATE_REPLY sent on to the client: {@code swMetaReply}; turned back as
 *       META_HELD: no step (Visibility.tla keeps the blocked reply in flight);</li>
 *   <li>a CLEAR answered with CLEAR_ACK: {@code swClear};</li>
 *   <li>a client's READ answered by the switch: {@code swRead} (hit, the log address's write); sent on to the
 *       metadata node: {@code swRead} (miss);</li>
 *   <li>any of these dropped (the switch not ready: before the first resynchronisation, or after a crash
 *       until the next): no step, the message stays in the spec's network (as a lost one does).</li>
 * </ul>
 *
 * The nodes' {@link VisibilityTraceEvents} give the other steps; the client's replies are the spec's
 * deliveries to the client (ClientCommit, ClientFallback, ClientReadDone, ClientReadRetry). Writes are
 * numbered 1.. in invocation order, reads after the writes; a log address is the write whose data node wrote
 * it there; slots are the hash indices of the run's keys, renumbered 0.. The run starts with {@code crash}
 * (p4/visibility.p4 drops everything until the switch OS's first resynchronisation, {@code resync}), so the
 * first resynchronisation is Visibility.tla's SwResync too.
 *
 * <p>A delivery is marked {@code dup} (delivered and a copy kept in flight) when the same abstract message
 * is delivered again later: the network duplicated it, or a re-send (a client's retry, the data node's
 * answer to it, a held reply re-sent) made a second copy of what the spec's message set holds once.
 *
 * <p>Host restarts: the metadata node's (its {@code visMdnRebuildStart} of cause start in an incarnation above 0) is
 * {@code rebuildStart} of cause restart, the trace spec's MdnRestart; a data node's and the switch OS's are no step
 * (the spec's data logs and timestamp sources are durable, and the switch OS holds nothing the spec has).
 *
 * <p>Refused (unknown, never accepted): a client's restart, a refused request
 * (BAD_REQUEST and other failure statuses), a log address no data node wrote, malformed frames or fields,
 * unknown events.
 */
public final class VisibilityTraceConverter {
    /** A converted run. */
    public record Converted(List<Map<String, Object>> steps, Map<String, Integer> slotOf, Map<String, Long> fpOf,
            int slots, int writes, int reads, int timeouts, int dups, int crashes, int metadataNodeRestarts) { }

    /** The prefix of the clients' events ({@link VisibilityTraceEvents#CLIENT_OP} and the others). */
    private static final String CLIENT_EVENTS = "visClient";

    private record Op(boolean write, int id, String key) { }

    private record Address(int dataNode, long position) { }

    private final HexFormat hex = HexFormat.of();
    private final List<Map<String, Object>> steps = new ArrayList<>();
    private final Map<String, Op> ops = new HashMap<>();
    private final Map<Address, Integer> writeAt = new HashMap<>();
    private final Map<String, Integer> rawSlotOf = new TreeMap<>();
    private final Map<String, Long> fpOf = new TreeMap<>();
    private final Map<Integer, Long> reload = new HashMap<>();
    private final Map<String, Integer> writeOfSlotTs = new HashMap<>();
    private int writes;
    private int reads;
    private int timeouts;
    private int crashes;
    private int metadataNodeRestarts;
    private boolean switchUp;

    public Converted convert(List<TraceLine> lines) {
        if (!lines.isEmpty()) {
            // p4/visibility.p4 starts not ready (vis_ready = 0): the spec's switch is down until the first resync
            add(lines.get(0), "crash");
            crashes++;
        }
        for (int i = 0; i < lines.size(); i++) {
            TraceLine line = lines.get(i);
            if (line.incarnation() != 0 && line.event().startsWith(CLIENT_EVENTS)) {
                // a restarted client forgets its operation and request ids; the spec's clients never restart
                throw new TraceFormatException("line " + line.line() + ": client " + line.host() + " restarted (incarnation "
                        + line.incarnation() + "); VisibilityTrace.tla covers restarts of the servers and the switch OS only");
            }
            switch (line.event()) {
                case Simulation.SWITCH_UDP_IN_EVENT -> {
                    List<TraceLine> out = SwitchUdpSteps.sentFor(lines, i);
                    i += out.size();
                    switchStep(line, out);
                }
                case Simulation.SWITCH_UDP_OUT_EVENT -> throw SwitchUdpSteps.sentWithoutInput(line);
                case Simulation.SWITCH_CRASH_EVENT -> {
                    if (switchUp) { // a crash during a resynchronisation changes nothing the spec holds
                        switchUp = false;
                        crashes++;
                        add(line, "crash");
                    }
                }
                case VisibilityTraceEvents.CLIENT_OP -> clientOp(line);
                case VisibilityTraceEvents.CLIENT_RESEND -> clientResend(line);
                case VisibilityTraceEvents.CLIENT_RECV -> clientRecv(line);
                case VisibilityTraceEvents.DN_WRITE -> dnWrite(line);
                case VisibilityTraceEvents.DN_READ -> {
                    Op r = op(line, line.number("client"), false);
                    Map<String, Object> s = add(line, "dnRead");
                    s.put("r", r.id());
                    s.put("k", sameKey(line, r));
                    s.put("w", writeAt(line, line.host(), line.number("position")));
                    s.put("valid", line.flag("valid"));
                }
                case VisibilityTraceEvents.MDN_READ -> {
                    Op r = op(line, line.number("client"), false);
                    Map<String, Object> s = add(line, "mdnRead");
                    s.put("r", r.id());
                    s.put("k", sameKey(line, r));
                    s.put("v", line.flag("found") ? writeAt(line, (int) line.number("dataNode"), line.number("position")) : 0);
                }
                case VisibilityTraceEvents.MDN_UPDATE -> {
                    Map<String, Object> s = add(line, "mdnUpdate");
                    s.put("w", writeAt(line, (int) line.number("dataNode"), line.number("position")));
                    s.put("k", key(line));
                    s.put("ts", line.number("ts"));
                }
                case VisibilityTraceEvents.MDN_DEFER -> {
                    Map<String, Object> s = add(line, "mdnDefer");
                    s.put("w", writeAt(line, (int) line.number("dataNode"), line.number("position")));
                    s.put("k", key(line));
                    s.put("ts", line.number("ts"));
                }
                case VisibilityTraceEvents.MDN_BATCH -> add(line, "batch");
                case VisibilityTraceEvents.MDN_CLEAR_ACK -> {
                    Map<String, Object> s = add(line, "clrAck");
                    s.put("k", key(line));
                    s.put("ts", line.number("ts"));
                }
                case VisibilityTraceEvents.MDN_CLEAR_RESEND -> {
                    timeouts++;
                    Map<String, Object> s = add(line, "clrTimeout");
                    s.put("k", key(line));
                    s.put("ts", line.number("ts"));
                }
                case VisibilityTraceEvents.MDN_REBUILD_RECORD -> {
                    Map<String, Object> s = add(line, "rebuild");
                    s.put("w", writeAt(line, (int) line.number("dataNode"), line.number("position")));
                    s.put("k", key(line));
                    s.put("ts", line.number("ts"));
                }
                case VisibilityTraceEvents.MDN_REBUILD_START -> {
                    String cause = line.string("cause");
                    if (!cause.equals("start") && !cause.equals("resync")) {
                        throw new TraceFormatException("line " + line.line() + ": unknown rebuild cause " + cause);
                    }
                    boolean restart = cause.equals("start") && line.incarnation() > 0;
                    metadataNodeRestarts += restart ? 1 : 0;
                    add(line, "rebuildStart").put("cause", restart ? "restart" : cause);
                }
                case VisibilityTraceEvents.MDN_REBUILT -> add(line, "rebuilt");
                case VisibilityTraceEvents.RESYNC_MAX_TS -> reload.put((int) line.number("slot"), line.number("ts"));
                case VisibilityTraceEvents.RESYNC_DONE -> {
                    if (switchUp) {
                        throw new TraceFormatException("line " + line.line() + ": a resynchronisation ended while the switch was up");
                    }
                    switchUp = true;
                    add(line, "resync").put("reload", new Reload(new HashMap<>(reload)));
                    reload.clear();
                }
                case VisibilityTraceEvents.STALE_RESEND -> {
                    timeouts++;
                    Map<String, Object> s = add(line, "stale");
                    s.put("s", (long) line.number("slot")); // renumbered below
                    s.put("w", writeAt(line, (int) line.number("dataNode"), line.number("position")));
                }
                default -> throw new TraceFormatException("line " + line.line() + ": unknown event " + line.event());
            }
        }
        // slots: the run's hash indices renumbered 0..; reads numbered after the writes
        TreeMap<Integer, Integer> index = new TreeMap<>();
        rawSlotOf.values().forEach(s -> index.put(s, 0));
        int n = 0;
        for (Map.Entry<Integer, Integer> e : index.entrySet()) {
            e.setValue(n++);
        }
        Map<String, Integer> slotOf = new TreeMap<>();
        rawSlotOf.forEach((k, s) -> slotOf.put(k, index.get(s)));
        for (Map<String, Object> s : steps) {
            if (s.containsKey("r")) {
                s.put("r", writes + (Integer) s.get("r"));
            }
            if (s.get("reload") instanceof Reload r) {
                long[] bySlot = new long[Math.max(1, n)];
                r.raw().forEach((slot, ts) -> {
                    Integer spec = index.get(slot);
                    if (spec != null) {
                        bySlot[spec] = ts;
                    }
                });
                s.put("reload", new Reload(bySlot));
            }
            if (s.get("e").equals("stale")) {
                Integer slot = index.get((int) (long) (Long) s.get("s"));
                if (slot == null) {
                    throw new TraceFormatException("line " + s.get("src") + ": a stale entry at slot " + s.get("s")
                            + ", which no key of the run hashes to");
                }
                s.put("s", slot);
            }
        }
        // fingerprints: only their equality matters, and CRC-32C values exceed TLC's integers: renumbered 0..
        TreeMap<Long, Integer> fps = new TreeMap<>();
        fpOf.values().forEach(f -> fps.put(f, 0));
        int f = 0;
        for (Map.Entry<Long, Integer> e : fps.entrySet()) {
            e.setValue(f++);
        }
        Map<String, Long> fpIndex = new TreeMap<>();
        fpOf.forEach((k, fp) -> fpIndex.put(k, (long) fps.get(fp)));
        int dups = markDuplicates();
        return new Converted(List.copyOf(steps), slotOf, fpIndex, Math.max(1, n), writes, reads, timeouts, dups,
                crashes, metadataNodeRestarts);
    }

    /** The abstract message a delivery consumes (Visibility.tla's Msg), or null for a step that is no delivery. */
    private static String message(Map<String, Object> s) {
        Object w = s.get("w");
        Object r = s.get("r");
        Object k = s.get("k");
        Object ts = s.get("ts");
        return switch ((String) s.get("e")) {
            case "dnWrite" -> "WReq/" + w + "/" + k;
            case "swWriteReply" -> "WRep/" + w + "/" + k + "/" + ts;
            case "commit" -> "WAck/" + w + "/" + k + "/" + ts;
            case "fallback" -> "WFb/" + w + "/" + k + "/" + ts;
            case "mdnUpdate" -> "MReq/" + w + "/" + k + "/" + ts;
            case "swMetaReply" -> "MRep/" + w + "/" + k + "/" + ts;
            case "mdnDefer" -> "MUpd/" + w + "/" + k + "/" + ts;
            case "swClear" -> "Clr/" + k + "/" + ts;
            case "clrAck" -> "ClrAck/" + k + "/" + ts;
            case "swRead" -> "RReq/" + r + "/" + k;
            case "mdnRead" -> "MRead/" + r + "/" + k;
            case "dnRead" -> "DRead/" + w + "/" + r + "/" + k;
            case "readDone" -> "RRep/" + s.get("v") + "/" + r + "/" + k;
            case "readRetry" -> "RNack/" + r + "/" + k;
            default -> null;
        };
    }

    private int markDuplicates() {
        Set<String> later = new HashSet<>();
        int dups = 0;
        for (int i = steps.size() - 1; i >= 0; i--) {
            String m = message(steps.get(i));
            if (m != null) {
                boolean dup = !later.add(m);
                steps.get(i).put("dup", dup);
                dups += dup ? 1 : 0;
            }
        }
        return dups;
    }

    private void switchStep(TraceLine in, List<TraceLine> out) {
        InnetMessage m = message(in);
        if (VisExt.decodeOrNull(m.ext()) == null) {
            return; // not a visibility message: forwarded as is
        }
        switch (m.op()) {
            case VisOp.WRITE_REPLY -> {
                InnetMessage sent = sent(out, VisOp.WRITE_REPLY);
                if (m.status() != VisOp.STATUS_OK || sent == null) {
                    return; // a refused write (refused at the client) or dropped by a switch not ready
                }
                Op w = op(in, in.number("dst"), true, m.reqId());
                Map<String, Object> s = add(in, "swWriteReply");
                s.put("w", w.id());
                s.put("k", w.key());
                s.put("ts", m.seq());
                s.put("install", (sent.flags() & VisOp.FLAG_VISIBLE) != 0);
            }
            case VisOp.META_UPDATE_REPLY -> {
                InnetMessage sent = sent(out, VisOp.META_UPDATE_REPLY);
                if (m.status() != VisOp.STATUS_OK || sent == null) {
                    return; // held (META_HELD back to the metadata node: blocked, still in flight) or dropped
                }
                Op w = op(in, in.number("dst"), true, m.reqId());
                Map<String, Object> s = add(in, "swMetaReply");
                s.put("w", writeAt(in, LogAddress.decodeOrNull(m.value())));
                s.put("k", w.key());
                s.put("ts", m.seq());
            }
            case VisOp.CLEAR -> {
                if (sent(out, VisOp.CLEAR_ACK) == null) {
                    return;
                }
                Map<String, Object> s = add(in, "swClear");
                s.put("k", hex.formatHex(m.key()));
                s.put("ts", m.seq());
            }
            case VisOp.READ -> {
                InnetMessage hit = sent(out, VisOp.READ_REPLY);
                InnetMessage miss = sent(out, VisOp.READ);
                if (hit == null && miss == null) {
                    return;
                }
                Op r = op(in, in.number("src"), false, m.reqId());
                Map<String, Object> s = add(in, "swRead");
                s.put("r", r.id());
                s.put("k", r.key());
                s.put("hit", hit != null);
                s.put("w", hit != null ? writeAt(in, LogAddress.decodeOrNull(hit.value())) : 0);
            }
            default -> { } // forwarded by address: no step of the spec
        }
    }

    private InnetMessage sent(List<TraceLine> out, int op) {
        for (TraceLine o : out) {
            InnetMessage m = message(o);
            if (m.op() == op) {
                return m;
            }
        }
        return null;
    }

    private InnetMessage message(TraceLine line) {
        try {
            return InnetMessage.decode(hex.parseHex(line.string("payload")));
        } catch (WireException | IllegalArgumentException e) {
            throw new TraceFormatException("line " + line.line() + ": not a visibility message: " + e.getMessage());
        }
    }

    private void clientOp(TraceLine line) {
        String op = line.string("op");
        String k = key(line);
        int slot = (int) line.number("slot");
        long fp = line.number("fp");
        Integer knownSlot = rawSlotOf.putIfAbsent(k, slot);
        Long knownFp = fpOf.putIfAbsent(k, fp);
        if ((knownSlot != null && knownSlot != slot) || (knownFp != null && knownFp != fp)) {
            throw new TraceFormatException("line " + line.line() + ": key " + k + " hashed to another slot or fingerprint before");
        }
        boolean write = switch (op) {
            case "put", "delete" -> true;
            case "get" -> false;
            default -> throw new TraceFormatException("line " + line.line() + ": unknown op " + op);
        };
        Op o = new Op(write, write ? ++writes : ++reads, k);
        if (ops.put(line.host() + "/" + line.number("reqId"), o) != null) {
            throw new TraceFormatException("line " + line.line() + ": request id " + line.number("reqId") + " of client "
                    + line.host() + " used twice");
        }
        Map<String, Object> s = add(line, write ? "invokeWrite" : "invokeRead");
        s.put(write ? "w" : "r", o.id());
        s.put("k", k);
    }

    private void clientResend(TraceLine line) {
        Op o = op(line, line.host(), null);
        String phase = line.string("phase");
        switch (phase) {
            case "writeData", "writeMeta" -> {
                timeouts++;
                Map<String, Object> s = add(line, "writeTimeout");
                s.put("w", o.id());
                s.put("ph", phase.equals("writeData") ? "data" : "meta");
            }
            case "readMeta" -> {
                timeouts++;
                add(line, "readTimeout").put("r", o.id());
            }
            case "readData" -> { } // the DATA_READ again: a second copy of the spec's DRead (dup), no step
            default -> throw new TraceFormatException("line " + line.line() + ": unknown phase " + phase);
        }
    }

    private void clientRecv(TraceLine line) {
        Op o = op(line, line.host(), null);
        int replyOp = (int) line.number("op");
        long status = line.number("status");
        long seq = line.number("seq");
        switch (replyOp) {
            case VisOp.WRITE_REPLY, VisOp.META_UPDATE_REPLY -> {
                if (status != VisOp.STATUS_OK || !o.write()) {
                    throw refused(line, o);
                }
                boolean commit = replyOp == VisOp.META_UPDATE_REPLY || line.flag("visible");
                Map<String, Object> s = add(line, commit ? "commit" : "fallback");
                s.put("w", o.id());
                s.put("k", o.key());
                s.put("ts", seq);
            }
            case VisOp.READ_REPLY -> {
                if (o.write()) {
                    throw refused(line, o);
                }
                if (status == VisOp.STATUS_NOT_FOUND) {
                    readDone(line, o, 0);
                } else if (status != VisOp.STATUS_OK && status != VisOp.STATUS_UNAVAILABLE) {
                    throw refused(line, o);
                } // OK: the DATA_READ follows, part of the spec's DRead; UNAVAILABLE: rebuilding, the client re-sends
            }
            case VisOp.DATA_READ_REPLY -> {
                if (o.write()) {
                    throw refused(line, o);
                }
                if (status == VisOp.STATUS_OK || status == VisOp.STATUS_NOT_FOUND) {
                    // timestamps are unique per slot: the entry the data node returned, whichever key it holds
                    Integer w = writeOfSlotTs.get(rawSlotOf.get(o.key()) + "/" + seq);
                    if (w == null) {
                        throw new TraceFormatException("line " + line.line() + ": a read of key " + o.key() + " returned ts "
                                + seq + ", which no data node gave in its slot");
                    }
                    readDone(line, o, w);
                } else if (status == VisOp.STATUS_KEY_MISMATCH) {
                    Map<String, Object> s = add(line, "readRetry");
                    s.put("r", o.id());
                    s.put("k", o.key());
                } else {
                    throw refused(line, o);
                }
            }
            default -> throw new TraceFormatException("line " + line.line() + ": a client received op 0x"
                    + Integer.toHexString(replyOp));
        }
    }

    private void readDone(TraceLine line, Op o, int w) {
        Map<String, Object> s = add(line, "readDone");
        s.put("r", o.id());
        s.put("k", o.key());
        s.put("v", w);
    }

    private TraceFormatException refused(TraceLine line, Op o) {
        return new TraceFormatException("line " + line.line() + ": reply op 0x" + Integer.toHexString((int) line.number("op"))
                + " status " + line.number("status") + " to a " + (o.write() ? "write" : "read")
                + "; VisibilityTrace.tla covers runs whose requests are never refused");
    }

    private void dnWrite(TraceLine line) {
        Op w = op(line, line.number("client"), true);
        String k = sameKey(line, w);
        long ts = line.number("ts");
        Address a = new Address(line.host(), line.number("position"));
        Integer before = writeAt.putIfAbsent(a, w.id());
        if (before != null && before != w.id()) {
            throw new TraceFormatException("line " + line.line() + ": data node " + line.host() + " reports position "
                    + a.position() + " for two writes");
        }
        writeOfSlotTs.putIfAbsent(rawSlotOf.get(k) + "/" + ts, w.id());
        Map<String, Object> s = add(line, "dnWrite");
        s.put("w", w.id());
        s.put("k", k);
        s.put("ts", ts);
    }

    private Op op(TraceLine line, long client, Boolean write) {
        return op(line, client, write, line.number("reqId"));
    }

    private Op op(TraceLine line, long client, Boolean write, long reqId) {
        Op o = ops.get(client + "/" + reqId);
        if (o == null) {
            throw new TraceFormatException("line " + line.line() + ": request " + reqId + " of client " + client
                    + " was never started");
        }
        if (write != null && o.write() != write) {
            throw new TraceFormatException("line " + line.line() + ": request " + reqId + " of client " + client + " is a "
                    + (o.write() ? "write" : "read"));
        }
        return o;
    }

    private String key(TraceLine line) {
        String k = line.string("key");
        try {
            if (hex.parseHex(k).length != InnetMessage.KEY_BYTES) {
                throw new TraceFormatException("line " + line.line() + ": key " + k + " is not 16 bytes");
            }
        } catch (IllegalArgumentException e) {
            throw new TraceFormatException("line " + line.line() + ": key " + k + " is not hex");
        }
        return k;
    }

    private String sameKey(TraceLine line, Op o) {
        String k = key(line);
        if (!k.equals(o.key())) {
            throw new TraceFormatException("line " + line.line() + ": key " + k + " for a request on key " + o.key());
        }
        return k;
    }

    private int writeAt(TraceLine line, LogAddress a) {
        if (a == null) {
            throw new TraceFormatException("line " + line.line() + ": no log address in the message");
        }
        return writeAt(line, a.dataNode(), a.position());
    }

    private int writeAt(TraceLine line, int dataNode, long position) {
        Integer w = writeAt.get(new Address(dataNode, position));
        if (w == null) {
            throw new TraceFormatException("line " + line.line() + ": log address " + dataNode + "/" + position
                    + " that no data node reported writing");
        }
        return w;
    }

    private Map<String, Object> add(TraceLine line, String event) {
        Map<String, Object> step = new LinkedHashMap<>();
        step.put("e", event);
        step.put("src", (long) line.line());
        steps.add(step);
        return step;
    }

    /**
     * The MaxTs values a resynchronisation loaded: by hash index while converting, then as the TLA+ sequence
     * of the spec's slots (slot s is element s + 1; 0 where nothing was loaded).
     */
    record Reload(Object value) {
        @SuppressWarnings("unchecked")
        Map<Integer, Long> raw() {
            return (Map<Integer, Long>) value;
        }

        @Override
        public String toString() {
            long[] v = (long[]) value;
            return java.util.Arrays.stream(v).mapToObj(String::valueOf).collect(java.util.stream.Collectors.joining(", ", "<<", ">>"));
        }
    }

    /** The keys of a run, in order (the model's Keys). */
    static Set<String> keys(Converted run) {
        return new TreeSet<>(run.slotOf().keySet());
    }
}
