package dev.innet.tracecheck;

import dev.innet.kv.KvOp;
import dev.innet.kv.cache.SequenceBase;
import dev.innet.netcache.trace.NetCacheTraceEvents;
import dev.innet.sim.simulated.Simulation;
import dev.innet.wire.InnetMessage;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Turns one NetCache run's trace events (NetCacheTraceEvents) into the event sequence
 * specs/netcache/NetCacheTrace.tla walks, and picks the model's constants from the run.
 *
 * <p><b>Order.</b> NetCache.tla lets the switch handle a client request in the client's step and a server
 * reply in the step that delivers it to the client. A rack records where the switch handled them (switchIn,
 * switchOut: rack's SwitchFrameTrace in the simulator, p4sim --trace-frames on a live rack), and the steps
 * go there. A trace without them falls back on the simulated rack's clean fixed-delay client links: a
 * request at its send time plus the link delay, every reply a client receives (the one that ends its
 * operation, or a late or duplicated one it ignores) at its arrival time minus that delay. Controller steps act on the
 * switch at once; server events happen at the server. Events at the same instant keep their file order.
 *
 * <p><b>Values</b> are write ids 1..MaxWrites in the order the switch numbered the writes (the order
 * above); each workload value (unique per write; writes are never retransmitted) maps to its write's id,
 * no value (a key never written) to 0, and a value no write produced to -2, which no spec state holds.
 *
 * <p><b>Deletes</b> are writes with their own write id (the spec's ids do not care what is written); their
 * ids are listed in the model ({@code DeleteIds}) because the switch treats them differently: it stages
 * nothing (netcache.p4 NC-4 writes record_seq 0) and refills nothing from the NOT_FOUND reply a deleted
 * record gets. A deleted record carries no value, so it is identified by key and sequence number: the
 * delete of that key the switch numbered s (known from its reply or its serverPut); seq 0 is "no record"
 * (0); a deleted record no delete produced is -2.
 *
 * <p><b>Sequence numbers.</b> The switch's per-slot counters equal the spec's per-key counters while no
 * two keys of the run share a slot. After a restart the g-th switch numbers from (g-1) x 2^24
 * ({@link SequenceBase}); the spec's SwitchRestart (with RestartSeqBase) starts every counter at
 * nW + nCrash, one above every seq assigned before. So a seq s of incarnation g = s / 2^24 + 1 becomes
 * s - (g-1) x 2^24 + nW + nCrash at g's restart step (nCrash counting that restart). A switch that did
 * not raise its counters produces seqs this mapping sends below the spec's, and the run is rejected.
 *
 * <p><b>Request fates.</b> A reply flagged FROM_SWITCH to a read is a hit; a request with a reply or a
 * server event was forwarded; one with neither was forwarded and lost ("lost"), or, where the switch may
 * not have been programmed, also possibly never processed ("early";
 * {@link #silentRequestsTheSwitchMayHaveDropped}). A read retransmission is a new read after the client gave up on the
 * previous one (the client's timeout is far above any link delay).
 *
 * <p><b>Duplicates.</b> A server step or a reply seen again later (same request, same record) is taken
 * with "deliver and keep" the first time (dup = TRUE).
 *
 * <p>Runs with host restarts are refused ({@link TraceFormatException}): NetCacheTrace.tla has no host
 * crashes.
 */
public final class NetCacheTraceConverter {
    private static final long INCARNATION_SPAN = 1L << 24;

    /** The model: constants and the trace, ready to be written as TLA+. */
    public record Converted(List<Map<String, Object>> steps, Set<String> clients, Set<String> servers,
            Map<String, String> owner, Set<Long> deletes, int cacheSize, int writes, int reads, int losses,
            int duplicates, int admissions, int evictions, int restarts) {
        public Set<String> keys() {
            return owner.keySet();
        }
    }

    /** One attempt of a client request: a spec-level write or read. */
    private static final class Attempt {
        final boolean write;
        final boolean delete;
        final String key;
        final String value;
        final long reqId;
        /** When the switch processed it: its switchIn event, else (traces without them) send + link delay. */
        long switchTime;
        final int serial;
        /** The request's step, moved to its switchIn when one comes. */
        Step step;
        /** A switchIn event of this attempt was seen. */
        boolean reachedSwitch;
        String how = "lost";
        long replySeq = -1;
        String replyValue;
        boolean seenByServer;
        int id;

        Attempt(boolean write, boolean delete, String key, String value, long reqId, long switchTime, int serial) {
            this.write = write;
            this.delete = delete;
            this.key = key;
            this.value = value;
            this.reqId = reqId;
            this.switchTime = switchTime;
            this.serial = serial;
        }
    }

    private static final class Step {
        long time;
        final int order;
        final String kind;
        final LinkedHashMap<String, Object> fields = new LinkedHashMap<>();
        Attempt attempt;
        /** Steps with equal identities are one message handled again: all but the last take "deliver and keep". */
        String identity;
        /** An implementation seq to map to the spec's once the restarts are placed. */
        long implSeq = -1;
        /** An admission's known fill floor (an implementation seq) to map the same way. */
        long implFloor = -1;

        Step(long time, int order, String kind, int line) {
            this.time = time;
            this.order = order;
            this.kind = kind;
            fields.put("e", kind);
            fields.put("src", (long) line);
        }
    }

    private final TraceSettings settings;
    private final List<Step> steps = new ArrayList<>();
    private final Map<String, Attempt> current = new HashMap<>();
    private final Map<String, List<Attempt>> attemptsByRequest = new HashMap<>();
    /** Per client/reqId/reply op: when the switch sent such replies (switchOut), not yet taken by a reply event. */
    private final Map<String, ArrayDeque<Long>> repliesSent = new HashMap<>();
    private final Map<String, String> owner = new TreeMap<>();
    private final Set<String> clients = new TreeSet<>();
    private final Set<String> servers = new TreeSet<>();

    public NetCacheTraceConverter(TraceSettings settings) {
        this.settings = settings;
    }

    public Converted convert(List<TraceLine> lines) {
        for (TraceLine line : lines) {
            if (line.incarnation() != 0) {
                throw new TraceFormatException("line " + line.line() + ": host " + line.host() + " restarted (incarnation "
                        + line.incarnation() + "); host crashes are not covered by NetCacheTrace.tla");
            }
            if (line.host() == Simulation.ENVIRONMENT_HOST && (line.event().equals(Simulation.SWITCH_IN_EVENT)
                    || line.event().equals(Simulation.SWITCH_OUT_EVENT))) {
                switchFrame(line, line.event().equals(Simulation.SWITCH_IN_EVENT));
                continue;
            }
            if (line.host() == Simulation.ENVIRONMENT_HOST) {
                continue; // the simulator's other events (a switch crash): NetCacheTrace.tla has none
            }
            add(line);
        }
        if (steps.stream().noneMatch(s -> s.attempt != null)) {
            throw new TraceFormatException("the trace holds no NetCache client events");
        }
        steps.sort(Comparator.<Step>comparingLong(s -> s.time).thenComparingInt(s -> s.order));
        int writes = 0;
        int reads = 0;
        int restarts = 0;
        Map<String, Integer> writeIdOfValue = new HashMap<>();
        Map<String, Integer> deleteIdOfKeySeq = new HashMap<>();
        Set<Long> deletes = new TreeSet<>();
        // the spec's counter base of each switch incarnation: nW + nCrash after its restart step
        Map<Long, Integer> specBase = new HashMap<>();
        specBase.put(1L, 0);
        for (Step s : steps) {
            switch (s.kind) {
                case "write" -> {
                    Attempt a = s.attempt;
                    a.id = ++writes;
                    if (!a.delete) {
                        writeIdOfValue.put(a.value, writes);
                    } else {
                        deletes.add((long) writes);
                        if (a.replySeq > 0) {
                            deleteIdOfKeySeq.put(DeletedRecord.of(a.key, a.replySeq), writes);
                        }
                    }
                }
                case "read" -> s.attempt.id = ++reads;
                case "restart" -> {
                    restarts++;
                    specBase.put((Long) s.fields.remove("bringUp"), writes + restarts);
                }
                default -> { }
            }
        }
        int duplicates = 0;
        Set<String> laterIdentities = new HashSet<>();
        for (int i = steps.size() - 1; i >= 0; i--) {
            Step s = steps.get(i);
            if (s.identity != null) {
                boolean dup = !laterIdentities.add(s.identity);
                s.fields.put("dup", dup);
                duplicates += dup ? 1 : 0;
            }
        }
        Set<Step> mayBeUnprocessed = silentRequestsTheSwitchMayHaveDropped();
        int losses = 0;
        int admissions = 0;
        int evictions = 0;
        List<Map<String, Object>> out = new ArrayList<>(steps.size());
        for (Step s : steps) {
            Map<String, Object> f = s.fields;
            Attempt a = s.attempt;
            switch (s.kind) {
                case "write" -> {
                    f.put("w", (long) a.id);
                    f.put("how", !silent(a) ? "fwd" : mayBeUnprocessed.contains(s) ? "early" : "lost");
                    f.put("s", specSeq(a.replySeq, specBase));
                }
                case "read" -> {
                    f.put("r", (long) a.id);
                    f.put("how", !silent(a) ? (a.how.equals("hit") ? "hit" : "fwd")
                            : mayBeUnprocessed.contains(s) ? "early" : "lost");
                    boolean hit = a.how.equals("hit");
                    f.put("v", hit ? idOf(a.replyValue, writeIdOfValue, deleteIdOfKeySeq) : -1L);
                    f.put("s", hit ? specSeq(a.replySeq, specBase) : -1L);
                }
                case "putReply", "serverPut" -> f.put("w", (long) a.id);
                case "getReply", "serverGet" -> f.put("r", (long) a.id);
                case "giveUp" -> losses++;
                case "admit" -> admissions++;
                case "evict" -> evictions++;
                default -> { }
            }
            if (s.implSeq >= 0) {
                f.put("s", specSeq(s.implSeq, specBase));
            }
            if (s.implFloor >= 0) {
                f.put("floor", specSeq(s.implFloor, specBase));
            }
            for (String valueField : List.of("v", "sv")) {
                Object value = f.get(valueField);
                if (value instanceof String || value instanceof DeletedRecord) {
                    f.put(valueField, idOf(value, writeIdOfValue, deleteIdOfKeySeq));
                }
            }
            if (f.get("ss") instanceof Long stored && s.kind.startsWith("server")) {
                f.put("ss", specSeq(stored, specBase));
            }
            out.add(f);
        }
        for (Map.Entry<String, String> e : owner.entrySet()) {
            if (e.getValue() == null) {
                e.setValue(servers.isEmpty() ? "none" : servers.iterator().next());
            }
        }
        if (servers.isEmpty()) {
            servers.add("none");
        }
        int slots = settings.cacheSize() != null ? settings.cacheSize() : Math.max(1, owner.size());
        return new Converted(out, clients, servers, owner, deletes, slots, writes, reads, losses, duplicates, admissions,
                evictions, restarts);
    }

    /** A request with no trace of the switch processing it: no reply, no server event. */
    private static boolean silent(Attempt a) {
        return !a.seenByServer && a.how.equals("lost");
    }

    /**
     * The silent requests the switch may have dropped unprocessed rather than forwarded and lost: a switch
     * drops requests only while it is not programmed (before the first programming, and between a crash,
     * which is not traced, and the restart's programming). A request is surely processed if the switch was
     * seen handling a packet (a request with a reply or a server event, or a reply) both before and after
     * it with no restart in between; every other silent request may have been dropped. Offering both
     * explanations for every silent request would keep two branches apart for the rest of the run (the
     * spec's loss counter differs), one more state per such request at every later event.
     */
    private Set<Step> silentRequestsTheSwitchMayHaveDropped() {
        Set<Step> seenBefore = new HashSet<>();
        boolean seen = false;
        for (Step s : steps) {
            seen = updateSeen(s, seen);
            if (isSilentRequest(s) && seen) {
                seenBefore.add(s);
            }
        }
        Set<Step> out = new HashSet<>();
        seen = false;
        for (int i = steps.size() - 1; i >= 0; i--) {
            Step s = steps.get(i);
            seen = updateSeen(s, seen);
            if (isSilentRequest(s) && !(seen && seenBefore.contains(s))) {
                out.add(s);
            }
        }
        return out;
    }

    /** Whether the switch was seen working since the last restart, after step s (walking either way). */
    private static boolean updateSeen(Step s, boolean seen) {
        return switch (s.kind) {
            case "restart" -> false;
            case "write", "read" -> seen || !silent(s.attempt);
            case "putReply", "getReply" -> true;
            default -> seen;
        };
    }

    private static boolean isSilentRequest(Step s) {
        return (s.kind.equals("write") || s.kind.equals("read")) && silent(s.attempt);
    }

    /**
     * The spec's seq of an implementation seq: the offset in its switch incarnation plus that incarnation's
     * spec base. -1 (not observed) and 0 (no record) stay; a seq of an incarnation that never started is
     * left as it is (no spec state will match it).
     */
    private static long specSeq(long seq, Map<Long, Integer> specBase) {
        if (seq <= 0) {
            return seq;
        }
        long incarnation = seq / INCARNATION_SPAN + 1;
        Integer base = specBase.get(incarnation);
        return base == null ? seq : seq - SequenceBase.of(incarnation) + base;
    }

    /**
     * A deleted record (or none: seq 0) of a key as the implementation reports it: no value, only the key and
     * the seq the switch gave the delete, which is what tells deletes apart.
     */
    private record DeletedRecord(String key, long seq) {
        static String of(String key, long seq) {
            return key + "/" + seq;
        }
    }

    /**
     * The spec value of an implementation value: "" or a deleted record with seq 0 (no record) is 0, a written
     * value its write id, a deleted record the id of the delete of its key numbered with its seq; anything no
     * write produced is -2, which no spec state holds.
     */
    private static long idOf(Object value, Map<String, Integer> writeIdOfValue, Map<String, Integer> deleteIdOfKeySeq) {
        Integer id;
        if (value instanceof DeletedRecord d) {
            if (d.seq() == 0) {
                return 0;
            }
            id = deleteIdOfKeySeq.get(DeletedRecord.of(d.key(), d.seq()));
        } else {
            String text = (String) value;
            if (text.isEmpty()) {
                return 0;
            }
            id = writeIdOfValue.get(text);
        }
        return id == null ? -2 : id;
    }

    private Step step(long time, String kind, TraceLine line) {
        Step s = new Step(time, steps.size(), kind, line.line());
        steps.add(s);
        return s;
    }

    private String key(TraceLine line) {
        String k = line.string("key");
        owner.putIfAbsent(k, null);
        return k;
    }

    private void add(TraceLine line) {
        String host = "h" + line.host();
        long t = line.time();
        long link = settings.clientLinkNanos();
        switch (line.event()) {
            case NetCacheTraceEvents.CLIENT_WRITE, NetCacheTraceEvents.CLIENT_READ -> {
                boolean write = line.event().equals(NetCacheTraceEvents.CLIENT_WRITE);
                clients.add(host);
                // a delete is a write (of a deleted record): its own write id, no value
                boolean delete = write && line.has("delete") && line.flag("delete");
                long attempt = line.number("attempt");
                if (attempt > 1) {
                    if (write) {
                        throw new TraceFormatException("line " + line.line()
                                + ": a write retransmission (the spec's writes are sent once)");
                    }
                    step(t, "giveUp", line).fields.put("c", host);
                }
                Attempt a = new Attempt(write, delete, key(line), write && !delete ? line.string("value") : null,
                        line.number("reqId"), t + link, steps.size());
                current.put(host, a);
                attemptsByRequest.computeIfAbsent(host + "/" + a.reqId, x -> new ArrayList<>()).add(a);
                Step s = step(a.switchTime, write ? "write" : "read", line);
                a.step = s;
                s.attempt = a;
                s.fields.put("c", host);
                s.fields.put("k", a.key);
            }
            case NetCacheTraceEvents.CLIENT_REPLY -> {
                Attempt a = current.get(host);
                if (a == null || a.reqId != line.number("reqId")) {
                    throw new TraceFormatException("line " + line.line() + ": a reply to " + host
                            + " for a request it did not send last");
                }
                current.remove(host);
                boolean fromSwitch = line.flag("fromSwitch");
                if (line.string("status").equals("failed") || (a.write && fromSwitch)) {
                    throw new TraceFormatException("line " + line.line() + ": a failed operation or a write the switch "
                            + "answered (neither is a NetCache step)");
                }
                a.how = fromSwitch ? "hit" : "fwd";
                a.replySeq = line.number("seq");
                a.replyValue = line.string("value");
                long switchTime = replySwitchTime(host, a, t - link); // a hit's reply is part of the read's step
                if (!fromSwitch) {
                    reply(line, switchTime, a, false);
                }
            }
            case NetCacheTraceEvents.CLIENT_STALE_REPLY -> {
                boolean write = line.string("op").equals("write");
                Attempt a = answeredAttempt(host, line.number("reqId"), write, t - link, line);
                reply(line, replySwitchTime(host, a, t - link), a, true);
            }
            case NetCacheTraceEvents.CLIENT_GAVE_UP -> {
                Attempt a = current.remove(host);
                if (a == null || a.reqId != line.number("reqId")) {
                    throw new TraceFormatException("line " + line.line() + ": " + host
                            + " gave up on a request it did not send last");
                }
                step(t, "giveUp", line).fields.put("c", host);
            }
            case NetCacheTraceEvents.SERVER_PUT, NetCacheTraceEvents.SERVER_GET -> {
                servers.add(host);
                boolean put = line.event().equals(NetCacheTraceEvents.SERVER_PUT);
                String k = key(line);
                owner.put(k, host);
                String client = "h" + line.number("client");
                Attempt a = attemptSeenAt(client, line.number("reqId"), t, line);
                a.seenByServer = true;
                if (put && a.replySeq < 0) {
                    a.replySeq = line.number("recSeq"); // the seq the switch gave the write, if its reply is lost
                }
                Step s = step(t, put ? "serverPut" : "serverGet", line);
                s.attempt = a;
                s.fields.put("c", client);
                s.fields.put("k", k);
                String prefix = put ? "rec" : "reply";
                if (!put) {
                    s.fields.put("cons", line.string("op").equals("GET_FOR_CACHE"));
                    s.fields.put("v", recordValue(line, prefix));
                }
                s.implSeq = line.number(prefix + "Seq");
                s.fields.put("sv", recordValue(line, "stored"));
                s.fields.put("ss", line.number("storedSeq"));
                // one request message: a PUT_SEQ carries its seq; a GET delivered twice may be answered differently
                s.identity = (put ? "put/" + line.number("recSeq") + "/" : "get/") + client + "/" + a.serial;
            }
            case NetCacheTraceEvents.ADMIT -> {
                Step s = step(t, "admit", line);
                s.fields.put("k", key(line));
                // a preloaded record's fill floor is known without a probe (the incarnation's base); -1: probed
                long floor = line.has("floor") ? line.number("floor") : -1;
                s.fields.put("floor", floor);
                if (floor > 0) {
                    s.implFloor = floor;
                }
            }
            case NetCacheTraceEvents.EVICT -> step(t, "evict", line).fields.put("k", key(line));
            case NetCacheTraceEvents.SERVER_PROBE -> {
                servers.add(host);
                String k = key(line);
                owner.put(k, host);
                Step s = step(t, "serverProbe", line);
                s.fields.put("k", k);
                s.implSeq = line.number("seq");
                // the controller resends the same probe (same request id) when its reply is lost
                s.identity = "probe/" + k + "/" + line.number("reqId");
            }
            case NetCacheTraceEvents.ADMIT_FLOOR -> {
                Step s = step(t, "admitFloor", line);
                s.fields.put("k", key(line));
                s.implSeq = line.number("seq");
            }
            case NetCacheTraceEvents.SWITCH_PROGRAMMED -> {
                long bringUp = line.number("bringUp");
                if (bringUp > 1) {
                    step(t, "restart", line).fields.put("bringUp", bringUp);
                }
            }
            default -> throw new TraceFormatException("line " + line.line() + ": unknown event " + line.event());
        }
    }

    /**
     * The switch processed a client's request (switchIn) or sent a reply to a client (switchOut), as a rack
     * records them (rack's SwitchFrameTrace, p4sim --trace-frames on a live rack). A request's step moves to
     * its first processing: with live veth links and port threads, or faulty simulated client links, the
     * send times do not give the order in which the switch numbered two clients' writes. Replies are queued
     * per request until the client's reply event takes the earliest ({@link #replySwitchTime}). A message of
     * no pending attempt (a late copy, a controller's message) places nothing.
     */
    private void switchFrame(TraceLine line, boolean in) {
        String client = "h" + line.number("client");
        long reqId = line.number("reqId");
        int op = (int) line.number("op");
        if (!in) {
            if ((op & InnetMessage.REPLY_BIT) != 0) {
                repliesSent.computeIfAbsent(client + "/" + reqId + "/" + op, x -> new ArrayDeque<>()).add(line.time());
            }
            return;
        }
        Attempt a = current.get(client);
        if (a == null || a.reqId != reqId || a.reachedSwitch || op != requestOp(a)) {
            return;
        }
        a.reachedSwitch = true;
        a.switchTime = line.time();
        a.step.time = line.time();
    }

    private static int requestOp(Attempt a) {
        return !a.write ? KvOp.GET : a.delete ? KvOp.DEL : KvOp.PUT;
    }

    /**
     * Where the switch handled the reply a client received at {@code fallback} + link delay: the earliest
     * switchOut of that reply to the client since the switch processed {@code a} and not taken by an earlier
     * reply event (a duplicated reply is sent, and received, once per copy; a read's retransmission shares
     * its request id, so the replies of earlier copies are passed over), else (no switch frames) {@code fallback}.
     */
    private long replySwitchTime(String client, Attempt a, long fallback) {
        int replyOp = KvOp.replyOf(requestOp(a));
        for (int op : a.write ? new int[] {replyOp} : new int[] {replyOp, KvOp.GET_FOR_CACHE_REPLY}) {
            ArrayDeque<Long> sent = repliesSent.get(client + "/" + a.reqId + "/" + op);
            while (sent != null && !sent.isEmpty() && sent.peek() < a.switchTime) {
                sent.poll();
            }
            if (sent != null && !sent.isEmpty()) {
                return sent.poll();
            }
        }
        return fallback;
    }

    /** A reply the switch handled on its way to the client: ended the operation, or came too late (stale). */
    private void reply(TraceLine line, long switchTime, Attempt a, boolean stale) {
        Step s = step(switchTime, a.write ? "putReply" : "getReply", line);
        s.attempt = a;
        s.fields.put("c", "h" + line.host());
        s.fields.put("stale", stale);
        if (!a.write) {
            s.fields.put("v", line.string("status").equals("ok") ? line.string("value")
                    : new DeletedRecord(a.key, line.number("seq")));
        }
        s.implSeq = line.number("seq");
        s.identity = (a.write ? "putR/" : "getR/") + s.fields.get("c") + "/" + a.serial + "/" + line.number("seq") + "/"
                + s.fields.get("v");
    }

    /** A record's value: its text, or a deleted (seq 0: absent) record; turned into a write id later. */
    private static Object recordValue(TraceLine line, String prefix) {
        return line.flag(prefix + "Deleted") ? new DeletedRecord(line.string("key"), line.number(prefix + "Seq"))
                : line.string(prefix + "Value");
    }

    /** The attempt of (client, reqId) a server saw at {@code time}: the last one the switch had seen by then. */
    private Attempt attemptSeenAt(String client, long reqId, long time, TraceLine line) {
        Attempt seen = null;
        for (Attempt a : attemptsByRequest.getOrDefault(client + "/" + reqId, List.of())) {
            if (a.switchTime <= time) {
                seen = a;
            }
        }
        if (seen == null) {
            throw new TraceFormatException("line " + line.line() + ": a server saw request " + reqId + " of " + client
                    + " before it was sent");
        }
        return seen;
    }

    /** The attempt a stale reply answers: the last one of (client, reqId) a server had seen by then. */
    private Attempt answeredAttempt(String client, long reqId, boolean write, long time, TraceLine line) {
        Attempt answered = null;
        for (Attempt a : attemptsByRequest.getOrDefault(client + "/" + reqId, List.of())) {
            if (a.write == write && a.seenByServer && a.switchTime <= time) {
                answered = a;
            }
        }
        if (answered == null) {
            throw new TraceFormatException("line " + line.line() + ": a reply to " + client + " for request " + reqId
                    + " that no server answered");
        }
        return answered;
    }
}
