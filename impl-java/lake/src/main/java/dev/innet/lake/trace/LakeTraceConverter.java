package dev.innet.lake.trace;

import dev.innet.lake.LakeSlots;
import dev.innet.tracecheck.ConvertedTrace;
import dev.innet.tracecheck.TraceConversion;
import dev.innet.tracecheck.TraceFormatException;
import dev.innet.tracecheck.SwitchUdpSteps;
import dev.innet.tracecheck.TraceLine;
import dev.innet.tracecheck.TraceModel;
import dev.innet.tracecheck.TraceSettings;

import dev.innet.lake.LakeTraceEvents;
import dev.innet.lake.client.LakeClient;
import dev.innet.lake.wire.McDatagram;
import dev.innet.lake.wire.McException;
import dev.innet.lake.wire.McOpcode;
import dev.innet.lake.wire.McRequest;
import dev.innet.lake.wire.McResponse;
import dev.innet.lake.wire.McStatus;
import dev.innet.lake.wire.MemcachedUdpCodec;
import dev.innet.sim.simulated.Simulation;
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
 * Turns one LaKe run's trace events into the event sequence specs/lake/LakeTrace.tla walks
 * (docs/conformance.md, "LaKe"). The data plane's steps come from the rack's record of the memcached
 * datagrams the switch processed ({@code switchUdpIn}) and sent in the same step ({@code switchUdpOut}):
 *
 * <ul>
 *   <li>a client's GET answered by the switch (its reply carries lake.p4's IPv4 identification): getHit;
 *       forwarded to a host: getMiss; a SET or DELETE forwarded: set (cacheable: a 16-byte key and a 32-byte
 *       SET value, lake.p4's LUT_SET; otherwise lake.p4's LUT_KEY_CHANGE); dropped (the switch was not
 *       programmed yet): no step, as a request lost on its way;</li>
 *   <li>a host's reply relayed to a client: reply (known); dropped: reply (not known);</li>
 *   <li>memcached's events: hostSet, hostGet; a client's timeout: timeout; the simulator's switch crash: reset.</li>
 * </ul>
 *
 * Runs the trace spec does not cover are refused ("unknown", never "accepted"): a memcached restart, a
 * request without a 16-byte key (lake.p4 only relays those), opcodes other than GET, SET and DELETE.
 */
public final class LakeTraceConverter {
    static final int KEY_BYTES = 16;
    static final int VALUE_BYTES = 32;

    /** A converted run. */
    public record Converted(List<Map<String, Object>> steps, Set<String> clients, Map<String, Integer> h1,
            Map<String, Integer> h2, int l1Size, int l2Size, int writes, int reads, int droppedReplies, int resets) { }

    /** A request the switch forwarded, by its tag. */
    private record Forwarded(int ordinal, String client, String key, boolean isGet, boolean cacheable, int write) { }

    private final HexFormat hex = HexFormat.of();
    private final List<Map<String, Object>> steps = new ArrayList<>();
    private final Set<String> clients = new TreeSet<>();
    private final Set<String> keys = new TreeSet<>();
    private final Map<Long, Forwarded> byTag = new HashMap<>();
    /** The write ids of each SET value (hex): a hit is matched by the ones whose bytes it returned. */
    private final Map<String, Set<Integer>> writesByValue = new HashMap<>();
    /** What each host's memcached holds per key, as a write id (0: never written). */
    private final Map<String, Integer> hostStore = new HashMap<>();
    private final Map<Integer, String> writeValueHex = new HashMap<>();
    private final Set<Integer> memcachedHosts = new HashSet<>();
    private long lastTag = -1;
    private int writes;
    private int reads;
    private int droppedReplies;
    private int resets;

    public Converted convert(List<TraceLine> lines) {
        for (TraceLine line : lines) {
            if (line.event().equals(LakeTraceEvents.HOST_START)) {
                if (!memcachedHosts.add(line.host())) {
                    throw new TraceFormatException("line " + line.line() + ": memcached on host " + line.host()
                            + " restarted (empty); Lake.tla's host never loses its items");
                }
            }
        }
        for (int i = 0; i < lines.size(); i++) {
            TraceLine line = lines.get(i);
            switch (line.event()) {
                case LakeTraceEvents.HOST_START -> { }
                case Simulation.SWITCH_UDP_IN_EVENT -> {
                    List<TraceLine> out = SwitchUdpSteps.sentFor(lines, i);
                    i += out.size();
                    switchStep(line, out);
                }
                case Simulation.SWITCH_UDP_OUT_EVENT -> throw SwitchUdpSteps.sentWithoutInput(line);
                case Simulation.SWITCH_CRASH_EVENT -> {
                    resets++;
                    add(line, "reset");
                }
                case LakeTraceEvents.HOST_REQUEST -> hostRequest(line);
                case LakeTraceEvents.CLIENT_TIMEOUT -> add(line, "timeout").put("c", client(line.host()));
                default -> throw new TraceFormatException("line " + line.line() + ": unknown event " + line.event());
            }
        }
        Map<String, Integer> h1 = compact(k -> slot(k, false));
        Map<String, Integer> h2 = compact(k -> slot(k, true));
        return new Converted(List.copyOf(steps), Set.copyOf(clients), h1, h2, distinct(h1), distinct(h2), writes, reads,
                droppedReplies, resets);
    }

    private void switchStep(TraceLine in, List<TraceLine> out) {
        McDatagram d = datagram(in);
        int src = (int) in.number("src");
        if (d.message() instanceof McRequest r && !memcachedHosts.contains(src)) {
            clientRequest(in, src, r, out);
        } else if (d.message() instanceof McResponse r && memcachedHosts.contains(src)) {
            hostReply(in, r, out);
        } else {
            throw new TraceFormatException("line " + in.line() + ": a memcached " + d.message().getClass().getSimpleName()
                    + " from host " + src + ", which " + (memcachedHosts.contains(src) ? "runs" : "does not run")
                    + " memcached");
        }
    }

    private void clientRequest(TraceLine in, int src, McRequest r, List<TraceLine> out) {
        if (r.key().length() != KEY_BYTES) {
            throw new TraceFormatException("line " + in.line() + ": a " + r.opcode() + " with a " + r.key().length()
                    + "-byte key, which lake.p4 only relays (LUT_RELAY); LakeTrace.tla covers 16-byte keys");
        }
        String c = client(src);
        String k = hex.formatHex(r.key().toArray());
        keys.add(k);
        TraceLine hit = null;
        TraceLine forwarded = null;
        for (TraceLine o : out) {
            if ((int) o.number("dst") == src && o.number("ipId") == LakeClient.LAKE_ANSWER_IP_ID) {
                hit = o;
            } else if (memcachedHosts.contains((int) o.number("dst"))) {
                forwarded = o;
            }
        }
        if (hit == null && forwarded == null) {
            return; // dropped before the pipeline forwarded it (the switch not programmed yet): as if lost
        }
        if (r.opcode() == McOpcode.GET && hit != null) {
            if (!(datagram(hit).message() instanceof McResponse answer)) {
                throw new TraceFormatException("line " + hit.line() + ": the switch answered a GET with a request");
            }
            reads++;
            Set<Integer> vs = writesByValue.getOrDefault(hex.formatHex(answer.value().toArray()), Set.of());
            Map<String, Object> step = add(in, "getHit");
            step.put("c", c);
            step.put("k", k);
            step.put("vs", new IntSet(Set.copyOf(vs)));
            return;
        }
        if (forwarded == null) {
            throw new TraceFormatException("line " + in.line() + ": the switch answered a " + r.opcode() + " itself");
        }
        if (!(datagram(forwarded).message() instanceof McRequest tagged)) {
            throw new TraceFormatException("line " + forwarded.line() + ": the switch forwarded a response to memcached");
        }
        long tag = Integer.toUnsignedLong(tagged.opaque());
        if (tag <= lastTag) {
            throw new TraceFormatException("line " + forwarded.line() + ": tag " + tag + " is not above the previous tag "
                    + lastTag + " (Lake.tla's tags never repeat or go back)");
        }
        lastTag = tag;
        int ordinal = byTag.size() + 1;
        switch (r.opcode()) {
            case GET -> {
                reads++;
                byTag.put(tag, new Forwarded(ordinal, c, k, true, true, 0));
                Map<String, Object> step = add(in, "getMiss");
                step.put("c", c);
                step.put("k", k);
                step.put("tag", ordinal);
            }
            case SET, DELETE -> {
                int w = ++writes;
                boolean cacheable = r.opcode() == McOpcode.SET && r.value().length() == VALUE_BYTES;
                String valueHex = r.opcode() == McOpcode.SET ? hex.formatHex(r.value().toArray()) : "";
                writeValueHex.put(w, valueHex);
                if (r.opcode() == McOpcode.SET) {
                    writesByValue.computeIfAbsent(valueHex, x -> new TreeSet<>()).add(w);
                }
                byTag.put(tag, new Forwarded(ordinal, c, k, false, cacheable, w));
                Map<String, Object> step = add(in, "set");
                step.put("c", c);
                step.put("k", k);
                step.put("w", w);
                step.put("tag", ordinal);
                step.put("cacheable", cacheable);
            }
        }
    }

    private void hostReply(TraceLine in, McResponse r, List<TraceLine> out) {
        Forwarded f = forwarded(in, Integer.toUnsignedLong(r.opaque()));
        boolean relayed = out.stream().anyMatch(o -> !memcachedHosts.contains((int) o.number("dst")));
        boolean fill = f.isGet() ? r.status() == McStatus.OK && r.value().length() == VALUE_BYTES
                : f.cacheable() && r.status() == McStatus.OK;
        if (!relayed) {
            droppedReplies++;
        }
        Map<String, Object> step = add(in, "reply");
        step.put("tag", f.ordinal());
        step.put("known", relayed);
        step.put("fill", fill);
    }

    private void hostRequest(TraceLine line) {
        Forwarded f = forwarded(line, line.number("opaque"));
        String k = line.string("key");
        if (!k.equals(f.key())) {
            throw new TraceFormatException("line " + line.line() + ": memcached got key " + k + " for tag " + line.number("opaque")
                    + ", which the switch forwarded for key " + f.key());
        }
        String storeKey = line.host() + "/" + k;
        if (f.isGet()) {
            int held = hostStore.getOrDefault(storeKey, 0);
            boolean found = line.number("status") == McStatus.OK;
            // the write id memcached holds; -1 (which no spec state has) if its answer is not that write's value
            boolean agrees = found ? held != 0 && writeValueHex.get(held).equals(line.string("value"))
                    && !writeValueHex.get(held).isEmpty()
                    : held == 0 || writeValueHex.get(held).isEmpty();
            Map<String, Object> step = add(line, "hostGet");
            step.put("tag", f.ordinal());
            step.put("k", k);
            step.put("v", agrees ? held : -1);
        } else {
            hostStore.put(storeKey, f.write());
            Map<String, Object> step = add(line, "hostSet");
            step.put("tag", f.ordinal());
            step.put("k", k);
            step.put("w", f.write());
        }
    }

    private Forwarded forwarded(TraceLine line, long tag) {
        Forwarded f = byTag.get(tag);
        if (f == null) {
            throw new TraceFormatException("line " + line.line() + ": tag " + tag + " was never issued by the switch");
        }
        return f;
    }

    private McDatagram datagram(TraceLine line) {
        try {
            return MemcachedUdpCodec.decode(hex.parseHex(line.string("payload")));
        } catch (McException | IllegalArgumentException e) {
            throw new TraceFormatException("line " + line.line() + ": not a memcached datagram: " + e.getMessage());
        }
    }

    private String client(int host) {
        String c = "c" + host;
        clients.add(c);
        return c;
    }

    private Map<String, Object> add(TraceLine line, String event) {
        Map<String, Object> step = new LinkedHashMap<>();
        step.put("e", event);
        step.put("src", (long) line.line());
        steps.add(step);
        return step;
    }

    /** lake.p4's slot of a key (L2: salted), {@link LakeSlots}. */
    static int slot(String keyHex, boolean secondLayer) {
        byte[] key = HexFormat.of().parseHex(keyHex);
        return secondLayer ? LakeSlots.l2Slot(key) : LakeSlots.l1Slot(key);
    }

    /** Each key's data-plane slot, renumbered 0.. over the slots the run's keys use (sharing kept). */
    private Map<String, Integer> compact(java.util.function.ToIntFunction<String> slotOf) {
        TreeMap<Integer, Integer> index = new TreeMap<>();
        keys.forEach(k -> index.put(slotOf.applyAsInt(k), 0));
        int n = 0;
        for (Map.Entry<Integer, Integer> e : index.entrySet()) {
            e.setValue(n++);
        }
        Map<String, Integer> out = new TreeMap<>();
        keys.forEach(k -> out.put(k, index.get(slotOf.applyAsInt(k))));
        return out;
    }

    private static int distinct(Map<String, Integer> slots) {
        return Math.max(1, new HashSet<>(slots.values()).size());
    }

    /** A set of integers as a TLA+ value. */
    public record IntSet(Set<Integer> items) {
        @Override
        public String toString() {
            return items.stream().map(String::valueOf).collect(java.util.stream.Collectors.joining(", ", "{", "}"));
        }
    }
}
