package dev.innet.distcache.trace;

import dev.innet.distcache.DistCacheNetwork;
import dev.innet.distcache.DistCacheTraceEvents;
import dev.innet.distcache.wire.DcExt;
import dev.innet.distcache.wire.DcOp;
import dev.innet.kv.KvOp;
import dev.innet.kv.KvStatus;
import dev.innet.sim.simulated.Simulation;
import dev.innet.tracecheck.TraceFormatException;
import dev.innet.tracecheck.SwitchUdpSteps;
import dev.innet.tracecheck.TraceLine;
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
import java.util.TreeSet;

/**
 * Turns one DistCache run's trace events into the event sequence specs/distcache/DistCacheTrace.tla walks
 * (docs/conformance.md, "DistCache: trace validation"). The file is already in the simulator's processing
 * order, so steps keep it; what the converter decides is which frames and node events are which spec step:
 *
 * <ul>
 *   <li>a switch step whose input is a client's PUT/DEL and that forwarded it, the first for that request:
 *       write (ClientWrite);</li>
 *   <li>a GET routed to a cache node and answered by the switch (FROM_SWITCH): readHit; turned into a GET for
 *       the server (node 0): readMiss. The first such decision after a client's send is its spec read, a
 *       later one a copy the network duplicated (dupRead);</li>
 *   <li>an INV the switch turned into an INV_ACK: inv (CacheInv); an UPD the copy's switch consumed: upd
 *       (CacheUpdate, or refused: the spec decides);</li>
 *   <li>the servers', the controller's and the clients' events (DistCacheTraceEvents), the simulator's
 *       switch crash.</li>
 * </ul>
 *
 * Values are write ids numbered in ClientWrite order; a record is identified by its key and version (the
 * server's assignment), and its bytes must be that write's, else its value is -2, which no spec state holds.
 * Insertion tokens are numbered in insertion order. A message delivered again later (the network duplicated
 * it, or a resend made a second copy) is delivered with "deliver and keep" ({@code dup}). Refused (unknown,
 * never accepted): a host restart, malformed frames or fields, unknown events, each naming its line.
 */
public final class DistCacheTraceConverter {
    /** distcache.p4 caches values of at most this many bytes (the parser's 16 value words). */
    static final int CACHEABLE_VALUE_BYTES = 128;
    /** A value that no write of the run produced: no spec state holds it. */
    static final long INVENTED = -2;

    /** A converted run. */
    public record Converted(List<Map<String, Object>> steps, Set<String> clients, Map<String, String> spinePlace,
            Map<String, String> leafPlace, Set<String> nodes, int writes, int reads, int dups, int inserts,
            int evictions, int crashes) { }

    private record Written(long w, boolean deleted, String valueHex) { }

    /** The spec read a client's request currently stands for, and whether it went on to the server. */
    private static final class OpenRequest {
        final long reqId;
        long read;
        boolean decided;

        OpenRequest(long reqId) {
            this.reqId = reqId;
        }
    }

    private final HexFormat hex = HexFormat.of();
    private final List<Map<String, Object>> steps = new ArrayList<>();
    private final Set<String> clients = new TreeSet<>();
    private final Set<String> keys = new TreeSet<>();
    private final Map<String, Written> byVersion = new HashMap<>();
    private final Map<String, Long> writeOfRequest = new HashMap<>();
    private final Map<Long, Long> insertionOfToken = new HashMap<>();
    private final Map<Integer, OpenRequest> openRequest = new HashMap<>();
    /** client/reqId -> the spec read whose GET a cache switch last sent on to the server */
    private final Map<String, Long> missedRead = new HashMap<>();
    private DistCacheNetwork network;
    private Placement placement;
    private long writes;
    private long reads;
    private int inserts;
    private int evictions;
    /** Evictions begun and not yet ended: controller host / key name / layer. */
    private final Set<String> evicting = new HashSet<>();
    private int crashes;

    public Converted convert(List<TraceLine> lines) {
        findController(lines);
        for (int i = 0; i < lines.size(); i++) {
            TraceLine line = lines.get(i);
            if (line.incarnation() > 0) {
                throw new TraceFormatException("line " + line.line() + ": host " + line.host() + " restarted (incarnation "
                        + line.incarnation() + "); DistCache.tla's servers, clients and controller never restart");
            }
            switch (line.event()) {
                case Simulation.SWITCH_UDP_IN_EVENT -> {
                    List<TraceLine> out = SwitchUdpSteps.sentFor(lines, i);
                    i += out.size();
                    switchStep(line, out);
                }
                case Simulation.SWITCH_UDP_OUT_EVENT -> throw SwitchUdpSteps.sentWithoutInput(line);
                case Simulation.SWITCH_CRASH_EVENT -> crash(line);
                case DistCacheTraceEvents.CONTROLLER_START -> { }
                case DistCacheTraceEvents.SERVER_WRITE -> serverWrite(line);
                case DistCacheTraceEvents.SERVER_INV_ACK -> {
                    Map<String, Object> s = add(line, "invAck");
                    keyLayerVersion(s, line);
                    s.put("outcome", line.string("outcome"));
                }
                case DistCacheTraceEvents.SERVER_RESEND_INV -> keyLayerVersion(add(line, "resend"), line);
                case DistCacheTraceEvents.SERVER_GET -> serverGet(line);
                case DistCacheTraceEvents.SERVER_FETCH -> {
                    Map<String, Object> s = add(line, "fetch");
                    String k = key(line.string("key"));
                    s.put("k", k);
                    s.put("l", layer(line, line.number("layer")));
                    s.put("tok", insertion(line.number("token")));
                    s.put("rec", record(k, line.number("version"), line.flag("deleted"), line.string("value")));
                }
                case DistCacheTraceEvents.CACHE_INSERT -> {
                    long ordinal = ++inserts;
                    insertionOfToken.put(line.number("token"), ordinal);
                    Map<String, Object> s = add(line, "insert");
                    s.put("k", key(line.string("key")));
                    s.put("l", layer(line, line.number("layer")));
                    s.put("tok", ordinal);
                }
                case DistCacheTraceEvents.CACHE_REFETCH_BEGIN -> {
                    long ordinal = ++inserts;   // a re-fill's token is numbered with the insertions' (nIns)
                    insertionOfToken.put(line.number("token"), ordinal);
                    refetch(line, "refetchBegin", ordinal);
                }
                case DistCacheTraceEvents.CACHE_REFETCH -> {
                    Long ordinal = insertionOfToken.get(line.number("token"));
                    if (ordinal == null) {
                        throw new TraceFormatException("line " + line.line() + ": a re-fill (token "
                                + line.number("token") + ") whose " + DistCacheTraceEvents.CACHE_REFETCH_BEGIN
                                + " the trace does not hold");
                    }
                    refetch(line, "refetch", ordinal);
                }
                case DistCacheTraceEvents.CACHE_EVICT_BEGIN -> {
                    evictions++;
                    Map<String, Object> s = add(line, "evictBegin");
                    s.put("k", key(line.string("key")));
                    s.put("l", layer(line, line.number("layer")));
                    evicting.add(line.host() + "/" + s.get("k") + "/" + s.get("l"));
                }
                case DistCacheTraceEvents.CACHE_EVICT -> {
                    Map<String, Object> s = add(line, "evict");
                    s.put("k", key(line.string("key")));
                    s.put("l", layer(line, line.number("layer")));
                    if (!evicting.remove(line.host() + "/" + s.get("k") + "/" + s.get("l"))) {
                        throw new TraceFormatException("line " + line.line() + ": an eviction whose "
                                + DistCacheTraceEvents.CACHE_EVICT_BEGIN + " the trace does not hold");
                    }
                }
                case DistCacheTraceEvents.CLIENT_TIMEOUT -> {
                    OpenRequest open = openRequest.get(line.host());
                    if (open != null && open.reqId == line.number("reqId")) {
                        open.decided = false;   // the next copy the switch decides on is a new spec read
                    }
                    add(line, "timeout").put("c", client(line.host()));
                }
                default -> throw new TraceFormatException("line " + line.line() + ": unknown event " + line.event());
            }
        }
        int dups = markDuplicates();
        Map<String, String> spine = new LinkedHashMap<>();
        Map<String, String> leaf = new LinkedHashMap<>();
        Set<String> nodes = new TreeSet<>();
        for (String k : keys) {
            spine.put(k, nodeName(placement.upperHome(k)));
            leaf.put(k, nodeName(placement.lowerHome(k)));
        }
        network.cacheNodes().keySet().forEach(n -> nodes.add(nodeName(n)));
        return new Converted(List.copyOf(steps), Set.copyOf(clients), spine, leaf, nodes, (int) writes, (int) reads, dups,
                inserts, evictions, crashes);
    }

    private void findController(List<TraceLine> lines) {
        for (TraceLine line : lines) {
            if (line.event().equals(DistCacheTraceEvents.CONTROLLER_START)) {
                if (network != null) {
                    throw new TraceFormatException("line " + line.line() + ": the controller started again;"
                            + " DistCache.tla's agents never lose what they inserted");
                }
                network = new DistCacheNetwork((int) line.number("spines"), (int) line.number("leaves"));
                List<Integer> servers = new ArrayList<>();
                for (String s : line.string("servers").split(",")) {
                    try {
                        servers.add(Integer.parseInt(s.trim()));
                    } catch (NumberFormatException e) {
                        throw new TraceFormatException("line " + line.line() + ": servers '" + line.string("servers")
                                + "' is not a list of host numbers");
                    }
                }
                placement = new Placement(network, servers);
            }
        }
        if (network == null) {
            throw new TraceFormatException("no " + DistCacheTraceEvents.CONTROLLER_START
                    + " event: the run's placement of keys is unknown (not a DistCache run?)");
        }
    }

    // ---- the switches' steps ------------------------------------------------------------------------

    private void switchStep(TraceLine in, List<TraceLine> out) {
        InnetMessage msg = message(in);
        DcExt ext = extension(in, msg);
        int src = (int) in.number("src");
        switch (msg.op()) {
            case KvOp.PUT, KvOp.DEL -> clientWrite(in, src, msg, out);
            case KvOp.GET -> {
                if (ext.node() != 0) {
                    readDecision(in, src, msg, ext, out);
                }
            }
            case DcOp.INV -> {
                for (TraceLine o : out) {
                    if (message(o).op() == DcOp.INV_ACK) {
                        Map<String, Object> s = add(in, "inv");
                        s.put("k", key(msg.keyHex()));
                        s.put("l", layer(in, ext.layer()));
                        s.put("n", msg.seq());
                        return;
                    }
                }
            }
            case DcOp.UPD -> {
                if (out.isEmpty() && atTheCopy(in, ext)) {
                    String k = key(msg.keyHex());
                    Map<String, Object> s = add(in, "upd");
                    s.put("k", k);
                    s.put("l", layer(in, ext.layer()));
                    s.put("rec", record(k, msg));
                    s.put("tok", ext.token() == 0 ? 0L : insertion(ext.token()));
                    s.put("big", (msg.flags() & KvOp.FLAG_DELETED) == 0 && msg.value().length > CACHEABLE_VALUE_BYTES);
                }
            }
            default -> { } // replies, acknowledgements, FETCH and HOT in transit: no spec step
        }
    }

    /**
     * An UPD the switch consumed at its copy: the switch is of the update's layer and is its node (a fill) or
     * resolved it (phase 2, node 0). Consumed elsewhere means dropped on the way (no route), not refused.
     */
    private boolean atTheCopy(TraceLine in, DcExt ext) {
        String name = in.string("switch");
        int node = network.nodeOf(name);
        return node != 0 && network.layerOf(name) == ext.layer() && (ext.node() == 0 || ext.node() == node);
    }

    private void clientWrite(TraceLine in, int src, InnetMessage msg, List<TraceLine> out) {
        String request = src + "/" + msg.reqId();
        if (out.isEmpty() || msg.isReply() || writeOfRequest.containsKey(request)) {
            return; // dropped (not programmed yet), or a copy of a write already on its way
        }
        long w = ++writes;
        writeOfRequest.put(request, w);
        Map<String, Object> s = add(in, "write");
        s.put("c", client(src));
        s.put("k", key(msg.keyHex()));
        s.put("w", w);
    }

    private void readDecision(TraceLine in, int src, InnetMessage msg, DcExt ext, List<TraceLine> out) {
        Boolean hit = null;
        InnetMessage answer = null;
        for (TraceLine o : out) {
            InnetMessage m = message(o);
            if (m.op() == KvOp.GET_REPLY && (m.flags() & KvOp.FLAG_FROM_SWITCH) != 0) {
                hit = true;
                answer = m;
            } else if (m.op() == KvOp.GET && extension(o, m).node() == 0) {
                hit = false;
            }
        }
        if (hit == null) {
            return; // routed on towards its cache node, or dropped
        }
        String c = client(src);
        String k = key(msg.keyHex());
        OpenRequest open = openRequest.get(src);
        boolean duplicate = open != null && open.reqId == msg.reqId() && open.decided;
        if (!duplicate) {
            open = new OpenRequest(msg.reqId());
            open.read = ++reads;
            openRequest.put(src, open);
        }
        open.decided = true;
        if (!hit) {
            missedRead.put(src + "/" + msg.reqId(), open.read);
        }
        Map<String, Object> s = add(in, duplicate ? "dupRead" : hit ? "readHit" : "readMiss");
        s.put("c", c);
        s.put("k", k);
        s.put("l", layer(in, ext.layer()));
        s.put("r", open.read);
        if (duplicate) {
            s.put("hit", hit);
        }
        if (hit) {
            s.put("rec", record(k, answer));
        }
    }

    private void crash(TraceLine line) {
        String name = line.string("switch");
        int node = network.nodeOf(name);
        if (node == 0) {
            return; // the client ToR holds no copy
        }
        crashes++;
        Map<String, Object> s = add(line, "crash");
        s.put("l", layer(line, network.layerOf(name)));
        s.put("s", nodeName(node));
    }

    // ---- the servers' steps -------------------------------------------------------------------------

    private void serverWrite(TraceLine line) {
        int c = (int) line.number("client");
        String request = c + "/" + line.number("reqId");
        Long w = writeOfRequest.get(request);
        if (w == null) {
            throw new TraceFormatException("line " + line.line() + ": a server took write " + request
                    + " that no switch forwarded from its client");
        }
        String k = key(line.string("key"));
        long n = line.number("version");
        byVersion.put(k + "/" + n, new Written(w, line.flag("deleted"), line.string("value")));
        Map<String, Object> s = add(line, "serverWrite");
        s.put("c", client(c));
        s.put("k", k);
        s.put("w", w);
        s.put("n", n);
        s.put("phaseOne", line.flag("phaseOne"));
    }

    private void serverGet(TraceLine line) {
        int c = (int) line.number("client");
        long reqId = line.number("reqId");
        String k = key(line.string("key"));
        // a late or duplicated copy of an earlier request is still that request's GET
        Long read = missedRead.get(c + "/" + reqId);
        if (read == null) {
            // no cache switch decided on it (the client ToR had no candidate node): a miss at no copy
            OpenRequest open = new OpenRequest(reqId);
            open.read = ++reads;
            open.decided = true;
            openRequest.put(c, open);
            read = open.read;
            missedRead.put(c + "/" + reqId, read);
            Map<String, Object> miss = add(line, "readMiss");
            miss.put("c", client(c));
            miss.put("k", k);
            miss.put("l", "");
            miss.put("r", read);
        }
        Map<String, Object> s = add(line, "serverGet");
        s.put("c", client(c));
        s.put("k", k);
        s.put("r", read);
        s.put("rec", record(k, line.number("version"), line.flag("deleted"), line.string("value")));
    }

    // ---- values, tokens, names ------------------------------------------------------------------------

    private Map<String, Object> record(String k, InnetMessage m) {
        boolean deleted = (m.flags() & KvOp.FLAG_DELETED) != 0 || m.status() == KvStatus.NOT_FOUND;
        return record(k, m.seq(), deleted, deleted ? "" : hex.formatHex(m.value()));
    }

    /** [v |-> the write id whose record this is, n |-> version]; v = -2 if no write of k made these bytes. */
    private Map<String, Object> record(String k, long version, boolean deleted, String valueHex) {
        long v;
        if (version == 0) {
            v = deleted ? 0 : INVENTED;
        } else {
            Written w = byVersion.get(k + "/" + version);
            v = w != null && w.deleted() == deleted && (deleted || w.valueHex().equals(valueHex)) ? w.w() : INVENTED;
        }
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("v", v);
        r.put("n", version);
        return r;
    }

    private long insertion(long token) {
        Long ordinal = insertionOfToken.get(token);
        return ordinal == null ? -1 : ordinal;   // a token no agent issued: no spec message carries it
    }

    private String layer(TraceLine line, long layer) {
        if (layer == DcOp.LAYER_UPPER) {
            return "spine";
        }
        if (layer == DcOp.LAYER_LOWER) {
            return "leaf";
        }
        throw new TraceFormatException("line " + line.line() + ": layer " + layer + " is neither upper (1) nor lower (2)");
    }

    private static String nodeName(int node) {
        return "n" + node;
    }

    private String key(String keyHex) {
        keys.add(keyHex);
        return keyHex;
    }

    private String client(int host) {
        String c = "c" + host;
        clients.add(c);
        return c;
    }

    private void keyLayerVersion(Map<String, Object> s, TraceLine line) {
        s.put("k", key(line.string("key")));
        s.put("l", layer(line, line.number("layer")));
        s.put("n", line.number("version"));
    }

    private InnetMessage message(TraceLine line) {
        try {
            return InnetMessage.decode(hex.parseHex(line.string("payload")));
        } catch (WireException | IllegalArgumentException e) {
            throw new TraceFormatException("line " + line.line() + ": not a DistCache message: " + e.getMessage());
        }
    }

    private static DcExt extension(TraceLine line, InnetMessage msg) {
        DcExt ext = DcExt.of(msg);
        if (ext == null) {
            throw new TraceFormatException("line " + line.line() + ": a DistCache message without its 12-byte extension");
        }
        return ext;
    }

    /** A re-fill's begin or end: the copy (k, l) and the re-fill's insertion number. */
    private void refetch(TraceLine line, String event, long ordinal) {
        Map<String, Object> s = add(line, event);
        s.put("k", key(line.string("key")));
        s.put("l", layer(line, line.number("layer")));
        s.put("tok", ordinal);
    }

    private Map<String, Object> add(TraceLine line, String event) {
        Map<String, Object> step = new LinkedHashMap<>();
        step.put("e", event);
        step.put("src", (long) line.line());
        steps.add(step);
        return step;
    }

    /**
     * Deliveries of one spec message (same kind and identity) that another delivery follows are "deliver
     * and keep" (dup = TRUE): the spec's network is a set, so a duplicated or resent copy is the same message.
     */
    private int markDuplicates() {
        Map<String, Integer> lastDelivery = new HashMap<>();
        for (int i = 0; i < steps.size(); i++) {
            String id = deliveryIdentity(steps.get(i));
            if (id != null) {
                lastDelivery.put(id, i);
            }
        }
        int dups = 0;
        for (int i = 0; i < steps.size(); i++) {
            Map<String, Object> s = steps.get(i);
            String id = deliveryIdentity(s);
            if (id != null) {
                boolean dup = lastDelivery.get(id) > i;
                s.put("dup", dup);
                dups += dup ? 1 : 0;
            }
        }
        return dups;
    }

    private static String deliveryIdentity(Map<String, Object> s) {
        return switch ((String) s.get("e")) {
            case "inv", "invAck" -> s.get("e") + "|" + s.get("k") + "|" + s.get("l") + "|" + s.get("n");
            case "upd" -> "upd|" + s.get("k") + "|" + s.get("l") + "|" + s.get("rec") + "|" + s.get("tok");
            case "fetch" -> "fetch|" + s.get("k") + "|" + s.get("l") + "|" + s.get("tok");
            case "serverGet" -> "get|" + s.get("c") + "|" + s.get("r");
            default -> null;
        };
    }
}
