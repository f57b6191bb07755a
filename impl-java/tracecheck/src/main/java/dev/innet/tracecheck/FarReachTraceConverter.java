package dev.innet.tracecheck;

import dev.innet.farreach.trace.FarReachTraceEvents;
import dev.innet.kv.KvOp;
import dev.innet.kv.cache.SequenceBase;
import dev.innet.protocol.RackPorts;
import dev.innet.wire.InnetMessage;
import dev.innet.sim.simulated.Simulation;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Turns one FarReach run's trace events into the event sequence specs/farreach/FarReachTrace.tla walks,
 * and picks the model's constants from the run.
 *
 * <p><b>Order.</b> The spec folds the switch's processing of a request into the client's action, so a
 * client event is placed where the switch saw it: a request at its send time plus the client link's delay,
 * a reply at its arrival time minus that delay (client links are clean, fixed-delay links in the rack;
 * only switch-server links are faulty). Controller steps act on the switch at once; server events happen
 * at the server. Events at the same instant keep their order in the file.
 *
 * <p><b>Values.</b> The spec's values are write ids 1..MaxWrites in the order the switch serialised the
 * writes (0 = no record). With the order above, the switch serialised writes in the order of their write
 * events, so the converter numbers writes in that order and maps each implementation value (unique per
 * write in the rack's workload) to its write's id; for one key a larger id is then a later write, exactly
 * as the switch's sequence numbers say. Reads, stored records and admitted or evicted records are written
 * as (id, seq); a value no write produced maps to -2, which no spec state holds.
 *
 * <p><b>Request fates.</b> A reply flagged FROM_SWITCH means the switch answered (a hit), any other reply
 * that a server did; a request that got none was either forwarded and lost, or never processed (e.g.
 * dropped before the switch was programmed), unless a server saw it. A read retransmission is a new read
 * after the client gave up on the previous one (the previous one was lost: the client's timeout is far
 * above any link delay).
 *
 * <p><b>Deletes</b> are writes (of a deleted record) with their own write id; a deleted record has no value,
 * so it is identified by its key and sequence number ({@link ValueRef}).
 *
 * <p><b>Switch crashes and recovery.</b> The simulator records the crash itself (host 0, {@link
 * Simulation#SWITCH_CRASH_EVENT}): a "crash" step, FarReach.tla's {@code SwitchCrash}, which empties the
 * network. Server events (and the replies they produce) between the crash and the end of recovery belong to
 * requests the old switch forwarded before it crashed (the restarted one drops every client request until
 * recovery opens its gate), so they move to just before the crash: a message that reaches its host after the
 * crash is the same as one delivered just before it. Requests the switch saw between the crash and the end
 * of recovery, with no trace of their own, are "dropped" ({@code ClientWriteDropped} /
 * {@code ClientReadDropped}). The implementation's recovery takes several steps (gate, sequence base,
 * collection of the clients' preserved records, replay to the servers, the servers' fence, re-admission of
 * the snapshot's records, release); the spec's {@code Recover} is one, placed at {@code recoverDone} (the
 * gate opens in that controller step). Its observable effects are folded into that step and checked there:
 * the record each server holds after the replay ({@code serverRecoverStore}; every other key's record must
 * not change), both seen through the fence (the spec's {@code Fenced}), and the records re-admitted (the
 * spec's {@code crec' = snap}). A fenced server reports a record below the base at the base, which maps to
 * the spec's base like any seq of the new incarnation.
 *
 * <p><b>Sequence numbers after a restart.</b> The g-th switch numbers from (g-1) x 2^24 ({@link
 * SequenceBase}); the spec's {@code Recover} sets every counter to its own incarnation base, nW + nSwCrash
 * (IncarnationBase), also above every earlier seq. So a seq s at or above the base of incarnation g maps to
 * s - base + (the spec's base at g's recovery), as FarReachReplay maps them; seqs below stay as they are. A switch whose
 * counters were not raised numbers below the base, and its seqs, taken as they are, fall at or below what
 * the servers already hold: the run is rejected at the first such write whose seq was seen.
 *
 * <p><b>Write copies.</b> A write's retransmission (same request id) is an "attempt" of the same write id:
 * farreach.p4 gives a copy of a client's last numbered write that write's seq again (FarReachTrace.tla's
 * SwitchWrite decides whether the switch had numbered it). A first copy nothing saw, or one whose value is
 * too long for the cache (FR-9), is an "open" write followed by its "attempt".
 *
 * <p><b>Host restarts.</b> A server's restart needs no step (its store is durable; what reached it while it
 * was down is lost); the controller's is a "ctlRestart" step before its first event of the new incarnation.
 *
 * <p>Runs with abandoned snapshots, client restarts, a controller restart during a switch recovery (after it
 * began: a controller restarted between the crash and any controller's switchCrashSeen runs the whole recovery), or a
 * crash whose recovery does not finish are refused ({@link TraceFormatException}): FarReachTrace.tla does not
 * cover them (docs/conformance.md).
 */
public final class FarReachTraceConverter {
    /** LinkFaults.CLEAN, the rack's client links: a fixed 1 us. */
    public static final long DEFAULT_CLIENT_LINK_NANOS = 1_000;

    /** The model: constants and the trace, ready to be written as TLA+. */
    public record Converted(List<Map<String, Object>> steps, Set<String> clients, Set<String> servers,
            Map<String, String> owner, int cacheSize, int writes, int reads, int losses, int duplicates, int admissions,
            int evictions, int snapshots, int crashes, Set<Long> bigWrites, boolean switchFrames) {
        public Set<String> keys() {
            return owner.keySet();
        }
    }

    /** One attempt of a client request: a spec-level write or read. */
    private static final class Attempt {
        final boolean write;
        final String client;
        final String key;
        final String value;
        final long reqId;
        /** When the switch processed it: its switchIn event, else (traces without them) send + link delay. */
        long switchTime;
        /** The request's step, moved to the switch's time when its switchIn event comes. */
        Step step;
        /** A switchIn event of this attempt was seen. */
        boolean reachedSwitch;
        /** When the switch first sent a reply of this attempt to the client (switchOut), -1 if never. */
        long firstOut = -1;
        /** The client accepted a reply of this attempt. */
        boolean replied;
        String how = "lost";
        long replySeq = -1;
        /** The sequence number the server saw this write with (PUT_SEQ), -1 if none did. */
        long serverSeq = -1;
        ValueRef replyValue;
        boolean seenByServer;
        int id;
        /** Distinguishes the attempts of one request (a read's retransmissions share its reqId). */
        int serial;
        /** A write's first copy; its retransmissions share its write id. Null for a first copy and for reads. */
        Attempt first;
        /** A write whose value is too long for the cache (FR-9: never cached). */
        boolean big;

        Attempt(boolean write, String client, String key, String value, long reqId, long switchTime) {
            this.write = write;
            this.client = client;
            this.key = key;
            this.value = value;
            this.reqId = reqId;
            this.switchTime = switchTime;
        }
    }

    /** One switch crash, from the crash to the end of its recovery. */
    private static final class Recovery {
        final Step crash;
        long done = Long.MAX_VALUE;
        /**
         * Whether a controller began this recovery (its switchCrashSeen). A controller that restarts before any
         * began it runs the whole recovery itself: the trace spec's CtlRestart, then Recover as one step.
         */
        boolean begun;
        /** Per key, the record its server holds after the last RECOVER_STORE of the key: (value, seq). */
        final Map<String, Object[]> stored = new TreeMap<>();
        /** The records recovery re-admitted (the spec's crec' = snap). */
        final List<Map<String, Object>> readmitted = new ArrayList<>();

        Recovery(Step crash) {
            this.crash = crash;
        }
    }

    private static final class Step {
        /** Where the step happened; a server event of the old switch's traffic moves to its crash. */
        long time;
        final int order;
        final String kind;
        final LinkedHashMap<String, Object> fields = new LinkedHashMap<>();
        Attempt attempt;
        String identity;
        /** The recovery a "recover" step ends. */
        Recovery recovery;

        Step(long time, int order, String kind, int line) {
            this.time = time;
            this.order = order;
            this.kind = kind;
            fields.put("e", kind);
            fields.put("src", (long) line);
        }
    }

    private final long clientLinkNanos;
    private final Integer cacheSize;
    private final List<Step> steps = new ArrayList<>();
    private final Map<String, Attempt> current = new HashMap<>();
    private final Map<String, List<Attempt>> attemptsByRequest = new HashMap<>();
    private final Map<String, String> owner = new TreeMap<>();
    private final Set<String> clients = new TreeSet<>();
    private final Set<String> servers = new TreeSet<>();
    private final List<Recovery> recoveries = new ArrayList<>();
    /** The crash whose recovery has not finished yet, or null. */
    private Recovery recovering;
    /** The trace has the switch's own switchIn/switchOut events (a rack run records them). */
    private boolean switchFrames;
    /** The controller's incarnation seen last (a restart shows as a new one). */
    private long controllerIncarnation;

    /**
     * @param clientLinkNanos the delay of the clients' links to the switch
     * @param cacheSize       the rack's cache capacity, or null for "as many slots as keys" (never limiting)
     */
    public FarReachTraceConverter(long clientLinkNanos, Integer cacheSize) {
        if (clientLinkNanos < 0 || (cacheSize != null && cacheSize < 1)) {
            throw new IllegalArgumentException("client link delay must be >= 0 and cache size >= 1");
        }
        this.clientLinkNanos = clientLinkNanos;
        this.cacheSize = cacheSize;
    }

    public Converted convert(List<TraceLine> lines) {
        for (TraceLine line : lines) {
            if (line.incarnation() != 0) {
                restarted(line);
            }
            if (line.host() == Simulation.ENVIRONMENT_HOST) {
                addEnvironment(line);
            } else {
                add(line);
            }
        }
        if (steps.isEmpty()) {
            throw new TraceFormatException("the trace holds no FarReach events");
        }
        if (recovering != null) {
            throw new TraceFormatException("line " + recovering.crash.fields.get("src")
                    + ": the switch crashed and its recovery did not finish before the run ended");
        }
        placeLostReplies();
        moveOldSwitchTraffic();
        steps.sort(Comparator.<Step>comparingLong(s -> s.time).thenComparingInt(s -> s.order));
        markDropped();
        int writes = 0;
        int reads = 0;
        Map<String, Integer> writeIdOfValue = new HashMap<>();
        Map<String, Integer> writeIdOfKeySeq = new HashMap<>();
        Set<Long> bigWrites = new TreeSet<>();
        for (Step s : steps) {
            Attempt a = s.attempt;
            if (s.kind.equals("write") || s.kind.equals("attempt")) {
                if (s.kind.equals("write")) {
                    a.id = ++writes;
                    if (a.value != null) {
                        writeIdOfValue.put(a.value, writes);
                    }
                    if (a.big) {
                        bigWrites.add((long) writes);
                    }
                } else {
                    a.id = a.first.id;
                }
                for (long seq : new long[] {a.replySeq, a.serverSeq}) {
                    if (seq > 0) {
                        // the first write wins: a key's seqs are unique unless a restarted switch numbered from 0
                        // again (a seeded bug), whose later deletes must not rename the earlier ones
                        writeIdOfKeySeq.putIfAbsent(a.key + "/" + seq, a.id);
                    }
                }
            } else if (s.kind.equals("read")) {
                a.id = ++reads;
            }
        }
        Ids ids = new Ids(writeIdOfValue, writeIdOfKeySeq);
        SeqMapping seqs = new SeqMapping();
        long switchWorking = firstProcessing();
        int losses = 0;
        int duplicates = 0;
        int admissions = 0;
        int evictions = 0;
        int snapshots = 0;
        int writesOpened = 0; // the spec's nW so far
        Set<String> laterIdentities = new java.util.HashSet<>();
        List<Map<String, Object>> out = new ArrayList<>(steps.size() * 5 / 4);
        for (int i = steps.size() - 1; i >= 0; i--) {
            Step s = steps.get(i);
            if (s.identity != null) {
                boolean dup = !laterIdentities.add(s.identity);
                s.fields.put("dup", dup);
                duplicates += dup ? 1 : 0;
            }
        }
        long fenceBase = -1;   // set by a recovery step: the servers' fence, applied once its stores are resolved
        for (Step s : steps) {
            Map<String, Object> f = s.fields;
            Attempt a = s.attempt;
            Map<String, Object> firstCopy = null;
            switch (s.kind) {
                case "write" -> {
                    writesOpened++;
                    f.put("w", (long) a.id);
                    String how = fate(a, switchWorking);
                    boolean plain = !a.big && (how.equals("hit") || how.equals("fwd"));
                    if (plain || how.equals("dropped")) {
                        f.put("how", how);
                        f.put("s", observedSeq(a));
                    } else {
                        // opened here, its first copy is a step of its own (SwitchWrite)
                        f.put("how", "open");
                        f.put("s", -1L);
                        firstCopy = new LinkedHashMap<>();
                        firstCopy.put("e", "attempt");
                        firstCopy.put("src", f.get("src"));
                        firstCopy.put("c", a.client);
                        firstCopy.put("w", (long) a.id);
                        firstCopy.put("how", copyFate(a, how));
                        firstCopy.put("s", observedSeq(a));
                    }
                }
                case "attempt" -> {
                    losses++;
                    f.put("w", (long) a.id);
                    f.put("how", copyFate(a, fate(a, switchWorking)));
                    f.put("s", observedSeq(a));
                }
                case "read" -> {
                    f.put("r", (long) a.id);
                    f.put("how", fate(a, switchWorking));
                    f.put("v", a.how.equals("hit") ? ids.of(a.replyValue) : -1L);
                    f.put("s", a.how.equals("hit") ? a.replySeq : -1L);
                }
                case "putReply", "serverPut" -> f.put("w", (long) a.id);
                case "serverGet" -> f.put("r", (long) a.id);
                case "giveUp", "replyLost" -> losses++;
                case "admitInstall" -> admissions++;
                case "evictStart" -> evictions++;
                case "snapStart" -> snapshots++;
                case "recover" -> {
                    // FarReach.tla's IncarnationBase: nW + nSwCrash, the g-th recovery following the g-th crash
                    int crashes = recoveries.indexOf(s.recovery) + 1;
                    seqs.recovered(crashes + 1, writesOpened + crashes, owner.keySet());
                    fenceBase = SequenceBase.of(crashes + 1);
                }
                default -> { }
            }
            for (String setField : List.of("snap", "stores", "crec")) {
                if (f.get(setField) instanceof List<?> records) {
                    List<Map<String, Object>> resolved = new ArrayList<>();
                    for (Object r : records) {
                        @SuppressWarnings("unchecked")
                        Map<String, Object> copy = new LinkedHashMap<>((Map<String, Object>) r);
                        resolve(copy, (String) copy.get("k"), ids, seqs);
                        resolved.add(copy);
                    }
                    f.put(setField, new TlaSet(resolved));
                }
            }
            // a reply step names no key: its request's
            resolve(f, a != null ? a.key : (String) f.get("k"), ids, seqs);
            if (fenceBase >= 0) {
                ids.fenced(fenceBase);   // after the recovery's own stores, which precede its fence
                fenceBase = -1;
            }
            out.add(f);
            if (firstCopy != null) {
                resolve(firstCopy, a.key, ids, seqs);
                out.add(firstCopy);
            }
        }
        for (String k : owner.keySet()) {
            if (owner.get(k) == null) {
                owner.put(k, servers.isEmpty() ? "none" : servers.iterator().next());
            }
        }
        if (servers.isEmpty()) {
            servers.add("none");
        }
        int slots = cacheSize != null ? cacheSize : Math.max(1, owner.size());
        return new Converted(HotReportPlacement.place(out), clients, servers, owner, slots, writes, reads, losses, duplicates,
                admissions, evictions, snapshots, recoveries.size(), bigWrites, switchFrames);
    }

    /** The seq a write copy was seen with: its reply's, else the PUT_SEQ's at a server, else -1 (not seen). */
    private static long observedSeq(Attempt a) {
        return a.replySeq >= 0 ? a.replySeq : a.serverSeq;
    }

    /**
     * A write copy's fate in SwitchWrite's terms: answered by the switch, forwarded, nothing seen of it
     * ("silent"), or, in a trace with the switch's own events, never reached the switch ("unseen") or
     * reached it and was forwarded and lost ("fwdLost").
     */
    private String copyFate(Attempt a, String how) {
        if (how.equals("hit") || how.equals("fwd") || how.equals("hitLost")) {
            return how;
        }
        if (!switchFrames || how.equals("early") || how.equals("dropped")) {
            return "silent"; // lost before or after the switch, or dropped by a switch not (yet) serving requests
        }
        // the switch answers a write it absorbs at once (a switchOut): without one it forwarded the write
        return a.reachedSwitch ? "fwdLost" : "unseen";
    }

    /**
     * A host of an incarnation above 0. Servers keep their store (durable) and lose only the messages that
     * reached them while down, which the trace spec's losses cover; the controller's restart is the trace
     * spec's CtlRestart, placed before its first event; a client's restart (its preserved records lost) is
     * not covered.
     */
    private void restarted(TraceLine line) {
        if (line.host() == RackPorts.CONTROLLER_HOST) {
            if (line.incarnation() != controllerIncarnation) {
                if (recovering != null && recovering.begun) {
                    throw new TraceFormatException("line " + line.line() + ": the controller restarted during a switch "
                            + "recovery (FarReachTrace.tla's Recover is one step)");
                }
                controllerIncarnation = line.incarnation();
                step(line.time(), "ctlRestart", line);
            }
        } else if (clients.contains("h" + line.host())) {
            throw new TraceFormatException("line " + line.line() + ": client h" + line.host() + " restarted (incarnation "
                    + line.incarnation() + "); client crashes are not covered by FarReachTrace.tla");
        }
    }

    /** Bytes of a value as trace text ({@code KvTraceFields.text}: printable text, or 0x and hex). */
    static int valueBytes(String text) {
        if (text.startsWith("0x") && text.length() % 2 == 0 && text.substring(2).chars().allMatch(
                ch -> Character.digit(ch, 16) >= 0)) {
            return (text.length() - 2) / 2;
        }
        return text.length();
    }

    /** Values of a record (a step or an entry of one of its sets) as write ids, its seqs as the spec's. */
    private static void resolve(Map<String, Object> f, String k, Ids ids, SeqMapping seqs) {
        for (String valueField : List.of("v", "sv")) {
            if (f.get(valueField) instanceof ValueRef ref) {
                long id = ids.of(ref);
                f.put(valueField, id);
                if (valueField.equals("sv")) {
                    ids.stored(k, ref, id);
                }
            }
        }
        for (String seqField : List.of("s", "ss")) {
            if (k != null && f.get(seqField) instanceof Long seq) {
                f.put(seqField, seqs.spec(k, seq));
            }
        }
    }

    /**
     * The spec's sequence numbers of the implementation's (FarReachReplay's mapping): the g-th switch
     * incarnation numbers a key's writes from its base (g-1) x 2^24 on, the spec from its own incarnation
     * base (FarReach.tla's IncarnationBase, Recover's ctr'). Both then count the key's writes one by one,
     * and both bases are above every seq assigned before, so the order of seqs is kept.
     */
    private static final class SeqMapping {
        /** Per key: an incarnation's base -> the spec's counter of the key at that incarnation's recovery. */
        private final Map<String, TreeMap<Long, Long>> floors = new HashMap<>();

        /** The {@code bringUp}-th switch is recovered: its counters start at {@code specBase} in the spec. */
        void recovered(long bringUp, long specBase, Set<String> keys) {
            long base = SequenceBase.of(bringUp);
            for (String k : keys) {
                floors.computeIfAbsent(k, x -> new TreeMap<>()).put(base, specBase);
            }
        }

        long spec(String k, long implSeq) {
            if (implSeq < 0) {
                return implSeq; // not observed
            }
            TreeMap<Long, Long> f = floors.get(k);
            Map.Entry<Long, Long> floor = f == null ? null : f.floorEntry(implSeq);
            return floor == null ? implSeq : implSeq - floor.getKey() + floor.getValue();
        }
    }

    /**
     * Replies the switch sent to a client that never accepted them (lost on the switch-client link): a write
     * no server saw was answered by the switch itself ("hitLost": absorbed, the answer lost); any other
     * reply becomes a "replyLost" step where the switch sent it (a GET_FOR_CACHE reply did its work there).
     */
    private void placeLostReplies() {
        for (List<Attempt> copies : attemptsByRequest.values()) {
            for (Attempt a : copies) {
                if (a.firstOut < 0 || a.replied) {
                    continue;
                }
                if (a.write && !a.seenByServer) {
                    a.how = "hitLost";
                } else if (a.seenByServer) {
                    Step s = new Step(a.firstOut, steps.size(), "replyLost", ((Long) a.step.fields.get("src")).intValue());
                    s.attempt = a;
                    s.fields.put("c", a.client);
                    steps.add(s);
                }
            }
        }
    }

    /**
     * Server events (and the replies to them) between a crash and the end of its recovery are the old
     * switch's traffic: the restarted switch forwards no client request before its gate opens. They move to
     * the crash, in their order, before it (the crash step sorts last among the steps of its instant).
     */
    private void moveOldSwitchTraffic() {
        for (Recovery r : recoveries) {
            for (Step s : steps) {
                boolean oldTraffic = s.kind.equals("serverPut") || s.kind.equals("serverGet") || s.kind.equals("serverEvict")
                        || s.kind.equals("serverProbe")
                        || s.kind.equals("putReply") || s.kind.equals("getReply") || s.kind.equals("replyLost");
                if (oldTraffic && s.time >= r.crash.time && s.time <= r.done) {
                    s.time = r.crash.time;
                }
            }
        }
    }

    /** Requests without any trace that reached the switch while it was down or recovering were dropped there. */
    private void markDropped() {
        boolean down = false;
        for (Step s : steps) {
            switch (s.kind) {
                case "crash" -> down = true;
                case "recover" -> down = false;
                case "write", "read", "attempt" -> {
                    if (down && s.attempt.how.equals("lost") && !s.attempt.seenByServer) {
                        s.attempt.how = "dropped";
                    }
                }
                default -> { }
            }
        }
    }

    /**
     * The switch processed a client's message (switchIn) or sent one to a client (switchOut): the request's
     * step moves to the moment of its first processing (a duplicate on the client link is processed again,
     * later), the reply's to the moment the switch first sent it. A message of no pending attempt (a late
     * copy of an earlier request, a controller's message) places nothing.
     */
    private void switchFrame(TraceLine line, boolean in) {
        switchFrames = true;
        Attempt a = current.get("h" + line.number("client"));
        long op = line.number("op");
        if (a == null || a.reqId != line.number("reqId")) {
            return;
        }
        int request = a.write ? (a.value == null ? KvOp.DEL : KvOp.PUT) : KvOp.GET;
        if (in && op == request && !a.reachedSwitch) {
            a.reachedSwitch = true;
            a.switchTime = line.time();
            a.step.time = line.time();
        } else if (!in && a.reachedSwitch && a.firstOut < 0 && isReplyTo((int) op, request)) {
            a.firstOut = line.time();
        }
    }

    private static boolean isReplyTo(int op, int request) {
        return request == KvOp.GET ? op == KvOp.GET_REPLY || op == KvOp.GET_FOR_CACHE_REPLY : op == KvOp.replyOf(request);
    }

    /** The simulator's own events: a switch crash, and the switch's processing of client messages. */
    private void addEnvironment(TraceLine line) {
        if (line.event().equals(Simulation.SWITCH_IN_EVENT) || line.event().equals(Simulation.SWITCH_OUT_EVENT)) {
            switchFrame(line, line.event().equals(Simulation.SWITCH_IN_EVENT));
            return;
        }
        if (!line.event().equals(Simulation.SWITCH_CRASH_EVENT)) {
            throw new TraceFormatException("line " + line.line() + ": unknown simulator event " + line.event());
        }
        if (recovering != null) {
            throw new TraceFormatException("line " + line.line() + ": the switch crashed again before its recovery "
                    + "finished (FarReach.tla's Recover needs a switch that stays up)");
        }
        // sorts after every other step of its instant: traffic moved to the crash comes before it
        Step crash = new Step(line.time(), Integer.MAX_VALUE, "crash", line.line());
        steps.add(crash);
        recovering = new Recovery(crash);
        recoveries.add(recovering);
    }

    private Recovery recovering(TraceLine line) {
        if (recovering == null) {
            throw new TraceFormatException("line " + line.line() + ": " + line.event() + " without a switch crash before "
                    + "it (the trace lacks the simulator's " + Simulation.SWITCH_CRASH_EVENT + " event)");
        }
        return recovering;
    }

    /** A TLA+ set of records in a step (rendered by {@link TraceModel}). */
    public record TlaSet(List<Map<String, Object>> records) {}

    /**
     * A record's value as the implementation wrote it: the value text, or (text null) a deleted record of
     * {@code key} with sequence number {@code seq}. A deleted record carries no value to tell deletes apart,
     * so it is told by its sequence number: seq 0 is "no record" (the spec's initial value 0), any other seq
     * is the delete the switch numbered so.
     */
    record ValueRef(String text, String key, long seq) {
        static ValueRef value(String text) {
            return new ValueRef(text, null, -1);
        }

        static ValueRef deleted(String key, long seq) {
            return new ValueRef(null, key, seq);
        }

        @Override
        public String toString() {
            return text != null ? text : "deleted(" + key + "," + seq + ")";
        }
    }

    /**
     * Spec values of implementation values: a written value is its write's id, a deleted record the id of the
     * delete with its key and sequence number ("no record", seq 0, is 0); anything no write produced is -2,
     * which no spec state holds, so a node inventing a value or a sequence number is rejected.
     */
    private static final class Ids {
        private final Map<String, Integer> byValue;
        private final Map<String, Integer> byKeySeq;
        /**
         * Per key, the deleted record a server last reported storing (its delete's id), or -2 when its last
         * reported record is a value; a key never reported has none (0).
         */
        private final Map<String, Long> storedDeletion = new HashMap<>();
        /** Per key and recovery base: the deletion the server held when the recovery fenced it (key/base). */
        private final Map<String, Long> fencedDeletion = new HashMap<>();

        Ids(Map<String, Integer> byValue, Map<String, Integer> byKeySeq) {
            this.byValue = byValue;
            this.byKeySeq = byKeySeq;
        }

        long of(ValueRef ref) {
            if (ref.text() != null) {
                Integer id = byValue.get(ref.text());
                return id == null ? -2 : id;
            }
            if (ref.seq() == 0) {
                return 0;
            }
            Integer id = byKeySeq.get(ref.key() + "/" + ref.seq());
            if (id != null) {
                return id;
            }
            // A fenced server (recovery's SEQ_FENCE) reports a record below the base at the base, the
            // spec's Fenced: the value is the one it held, so a deletion (or no record at all, 0) at exactly
            // a base is the deletion the server held at that recovery's fence (writes of the new incarnation
            // are numbered above the base). Any other unknown deleted seq is no write's.
            if (isIncarnationBase(ref.seq())) {
                return fencedDeletion.getOrDefault(ref.key() + "/" + ref.seq(), 0L);
            }
            return -2;
        }

        /** A recovery fenced every server at {@code base}: each key's record as it is now is kept there. */
        void fenced(long base) {
            storedDeletion.forEach((key, id) -> fencedDeletion.put(key + "/" + base, id));
        }

        /** A server reported storing {@code ref} (resolved to {@code id}) for {@code key}. */
        void stored(String key, ValueRef ref, long id) {
            if (key == null || id == -2) {
                return;
            }
            if (ref.text() == null) {
                storedDeletion.put(key, id);
            } else {
                storedDeletion.put(key, -2L);   // a value: a deletion at a base would be no write's
            }
        }

        private static boolean isIncarnationBase(long seq) {
            return seq > 0 && seq % SequenceBase.of(2) == 0;
        }
    }

    private Step step(long time, String kind, TraceLine line) {
        Step s = new Step(time, steps.size(), kind, line.line());
        steps.add(s);
        return s;
    }

    /** A step of server {@code host} about the line's key, which that server owns. */
    private Step serverStep(long time, String host, String kind, TraceLine line) {
        servers.add(host);
        String k = key(line);
        owner.put(k, host);
        Step s = step(time, kind, line);
        s.fields.put("k", k);
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
        boolean admission = line.event().equals(FarReachTraceEvents.ADMIT_INSTALL)
                || line.event().equals(FarReachTraceEvents.ADMIT_VALIDATE);
        if (admission && recovering != null) {
            // recovery's re-admission of the snapshot's records: part of the spec's atomic Recover (crec' = snap)
            if (line.event().equals(FarReachTraceEvents.ADMIT_INSTALL)) {
                Map<String, Object> r = new LinkedHashMap<>();
                r.put("k", key(line));
                r.put("v", recordValue(line, "rec"));
                r.put("s", line.number("recSeq"));
                recovering.readmitted.add(r);
            }
            return;
        }
        switch (line.event()) {
            case FarReachTraceEvents.CLIENT_WRITE, FarReachTraceEvents.CLIENT_READ -> {
                boolean write = line.event().equals(FarReachTraceEvents.CLIENT_WRITE);
                clients.add(host);
                // A delete is a write of a deleted record (the spec's write ids do not care what is written);
                // it has no value, so it is known by its key and sequence number (ValueRef).
                boolean delete = write && line.has("delete") && line.flag("delete");
                long attempt = line.number("attempt");
                if (attempt > 1 && !write) {
                    // a read retransmission is a new read after giving up (reads change nothing at the switch)
                    step(t, "giveUp", line).fields.put("c", host);
                }
                Attempt a = new Attempt(write, host, key(line), write && !delete ? line.string("value") : null,
                        line.number("reqId"),
                        t + clientLinkNanos);
                a.serial = steps.size();
                a.big = a.value != null && valueBytes(a.value) > InnetMessage.MAX_CACHED_VALUE_BYTES;
                List<Attempt> copies = attemptsByRequest.computeIfAbsent(host + "/" + a.reqId, x -> new ArrayList<>());
                if (attempt > 1 && write) {
                    // a retransmission: the same write (id, value), sent again with the same request id
                    Attempt previous = current.get(host);
                    if (previous == null || previous.reqId != a.reqId || copies.isEmpty()) {
                        throw new TraceFormatException("line " + line.line() + ": a write retransmission of " + host
                                + " without its first copy");
                    }
                    a.first = copies.get(0);
                }
                current.put(host, a);
                copies.add(a);
                Step s = step(a.switchTime, !write ? "read" : a.first == null ? "write" : "attempt", line);
                a.step = s;
                s.attempt = a;
                s.fields.put("c", host);
                s.fields.put("k", a.key);
            }
            case FarReachTraceEvents.CLIENT_REPLY -> {
                Attempt a = currentAttempt(host, line);
                boolean fromSwitch = line.flag("fromSwitch");
                if (line.string("status").equals("failed")) {
                    throw new TraceFormatException("line " + line.line() + ": a failed operation (not a FarReach step)");
                }
                a.how = fromSwitch ? "hit" : "fwd";
                a.replied = true;
                a.replySeq = line.number("seq");
                a.replyValue = line.string("status").equals("notFound") ? ValueRef.deleted(a.key, a.replySeq)
                        : ValueRef.value(line.string("value"));
                current.remove(host);
                if (!fromSwitch) {
                    Step s = step(a.firstOut >= 0 ? a.firstOut : t - clientLinkNanos, a.write ? "putReply" : "getReply", line);
                    s.attempt = a;
                    s.fields.put("c", host);
                    if (!a.write) {
                        s.fields.put("v", a.replyValue);
                    }
                    s.fields.put("s", a.replySeq);
                }
            }
            case FarReachTraceEvents.CLIENT_GAVE_UP -> {
                currentAttempt(host, line);
                current.remove(host);
                step(t, "giveUp", line).fields.put("c", host);
            }
            case FarReachTraceEvents.SERVER_PUT, FarReachTraceEvents.SERVER_GET -> {
                servers.add(host);
                boolean put = line.event().equals(FarReachTraceEvents.SERVER_PUT);
                String k = key(line);
                owner.put(k, host);
                String client = "h" + line.number("client");
                long reqId = line.number("reqId");
                Attempt a = attemptSeenAt(client, reqId, t, line);
                a.seenByServer = true;
                Step s = step(t, put ? "serverPut" : "serverGet", line);
                s.attempt = a;
                s.fields.put("c", client);
                s.fields.put("k", k);
                String prefix = put ? "rec" : "reply";
                if (put) {
                    a.serverSeq = line.number("recSeq");
                }
                if (!put) {
                    s.fields.put("v", recordValue(line, prefix));
                }
                s.fields.put("s", line.number(prefix + "Seq"));
                s.fields.put("sv", recordValue(line, "stored"));
                s.fields.put("ss", line.number("storedSeq"));
                // The identity is the request the switch sent, never the server's answer: a duplicated GET
                // delivered again after a newer write gets a newer record back, and is still the same message.
                // A PUT_SEQ carries its sequence number, so it is part of the request.
                s.identity = put ? "put/" + client + "/" + reqId + "/" + line.number("recSeq") + "/" + a.serial
                        : "get/" + client + "/" + reqId + "/" + a.serial;
            }
            case FarReachTraceEvents.SERVER_EVICT_STORE -> {
                Step s = serverStep(t, host, "serverEvict", line);
                String k = (String) s.fields.get("k");
                s.fields.put("v", recordValue(line, "rec"));
                s.fields.put("s", line.number("recSeq"));
                s.fields.put("sv", recordValue(line, "stored"));
                s.fields.put("ss", line.number("storedSeq"));
                s.identity = "evict/" + k + "/" + line.number("recSeq") + "/" + recordValue(line, "rec");
            }
            case FarReachTraceEvents.SERVER_PROBE -> {
                Step s = serverStep(t, host, "serverProbe", line);
                String k = (String) s.fields.get("k");
                s.fields.put("s", line.number("seq"));
                // the controller resends the same probe (same request id) when its reply is lost
                s.identity = "probe/" + k + "/" + line.number("reqId");
            }
            case FarReachTraceEvents.ADMIT_FLOOR -> {
                Step s = step(t, "admitFloor", line);
                s.fields.put("k", key(line));
                s.fields.put("s", line.number("seq"));
            }
            case FarReachTraceEvents.SWITCH_CRASH_SEEN -> recovering(line).begun = true;
            case FarReachTraceEvents.SERVER_RECOVER_STORE -> {
                servers.add(host);
                String k = key(line);
                owner.put(k, host);
                recovering(line).stored.put(k, new Object[] {recordValue(line, "stored"), line.number("storedSeq")});
            }
            case FarReachTraceEvents.RECOVER_DONE -> {
                Recovery r = recovering(line);
                if (line.number("readmitted") != r.readmitted.size()) {
                    throw new TraceFormatException("line " + line.line() + ": recovery reports " + line.number("readmitted")
                            + " records re-admitted, the trace holds " + r.readmitted.size());
                }
                r.done = t;
                Step s = step(t, "recover", line);
                s.recovery = r;
                List<Map<String, Object>> stores = new ArrayList<>();
                r.stored.forEach((k, rec) -> {
                    Map<String, Object> e = new LinkedHashMap<>();
                    e.put("k", k);
                    e.put("sv", rec[0]);
                    e.put("ss", rec[1]);
                    stores.add(e);
                });
                s.fields.put("stores", stores);
                s.fields.put("crec", r.readmitted);
                recovering = null;
            }
            case FarReachTraceEvents.ADMIT_INSTALL, FarReachTraceEvents.EVICT_STORE -> {
                Step s = step(t, line.event().equals(FarReachTraceEvents.ADMIT_INSTALL) ? "admitInstall" : "evictStore",
                        line);
                s.fields.put("k", key(line));
                s.fields.put("v", recordValue(line, "rec"));
                s.fields.put("s", line.number("recSeq"));
            }
            case FarReachTraceEvents.ADMIT_VALIDATE, FarReachTraceEvents.EVICT_START, FarReachTraceEvents.EVICT_FINISH -> {
                String kind = switch (line.event()) {
                    case FarReachTraceEvents.ADMIT_VALIDATE -> "admitValidate";
                    case FarReachTraceEvents.EVICT_START -> "evictStart";
                    default -> "evictFinish";
                };
                step(t, kind, line).fields.put("k", key(line));
            }
            case FarReachTraceEvents.SNAP_START -> step(t, "snapStart", line);
            case FarReachTraceEvents.SNAP_LOAD -> {
                Step s = step(t, "snapLoad", line);
                s.fields.put("k", key(line));
                boolean loaded = line.flag("loaded");
                s.fields.put("loaded", loaded);
                s.fields.put("v", loaded ? recordValue(line, "rec") : ValueRef.value(""));
                s.fields.put("s", loaded ? line.number("recSeq") : -1L);
            }
            case FarReachTraceEvents.SNAP_FINISH -> {
                List<Map<String, Object>> kept = new ArrayList<>();
                long records = line.number("records");
                for (int i = 0; i < records; i++) {
                    String k = line.string("key" + i);
                    owner.putIfAbsent(k, null);
                    Map<String, Object> r = new LinkedHashMap<>();
                    r.put("k", k);
                    r.put("v", line.flag("rec" + i + "Deleted") ? ValueRef.deleted(k, line.number("rec" + i + "Seq"))
                            : ValueRef.value(line.string("rec" + i + "Value")));
                    r.put("s", line.number("rec" + i + "Seq"));
                    kept.add(r);
                }
                step(t, "snapFinish", line).fields.put("snap", kept);
            }
            case FarReachTraceEvents.SNAP_ABANDONED -> throw new TraceFormatException("line " + line.line()
                    + ": a snapshot abandoned (an original did not arrive); FarReach.tla's snapshots always finish");
            default -> throw new TraceFormatException("line " + line.line() + ": unknown event " + line.event());
        }
    }

    /**
     * When the switch is known to process requests: the first moment it answered one or forwarded one to a
     * server. From then on (no switch restarts in a converted run) every request reaches its pipeline.
     */
    private long firstProcessing() {
        long first = Long.MAX_VALUE;
        for (Step s : steps) {
            boolean processed = s.kind.equals("serverPut") || s.kind.equals("serverGet")
                    || (s.attempt != null && s.attempt.how.equals("hit") && (s.kind.equals("write") || s.kind.equals("read")));
            if (processed) {
                first = Math.min(first, s.kind.startsWith("server") ? s.time : s.attempt.switchTime);
            }
        }
        return first;
    }

    /**
     * The fate of a request in the trace spec's terms: "hit", "fwd" (a server saw it), "lost" (forwarded,
     * then lost on the way to the server), or "early" (no trace, sent before the switch was known to
     * process requests: lost, or dropped by a switch not yet programmed). Telling "lost" from "early"
     * matters: both explanations of every silent request would stay apart in TLC's states (the loss counter
     * differs) and double them per request.
     */
    private static String fate(Attempt a, long switchWorking) {
        if (!a.how.equals("lost")) {
            return a.how;
        }
        if (a.seenByServer) {
            return "fwd";
        }
        return a.switchTime > switchWorking ? "lost" : "early";
    }

    /** A record's value (a deleted or absent record by its key and seq); turned into a write id later. */
    private static ValueRef recordValue(TraceLine line, String prefix) {
        return line.flag(prefix + "Deleted") ? ValueRef.deleted(line.string("key"), line.number(prefix + "Seq"))
                : ValueRef.value(line.string(prefix + "Value"));
    }

    private Attempt currentAttempt(String host, TraceLine line) {
        Attempt a = current.get(host);
        if (a == null || a.reqId != line.number("reqId")) {
            throw new TraceFormatException("line " + line.line() + ": " + line.event() + " of " + host
                    + " for a request it did not send last");
        }
        return a;
    }

    /** The attempt of (client, reqId) a server saw at {@code time}: the last one the switch had seen by then. */
    private Attempt attemptSeenAt(String client, long reqId, long time, TraceLine line) {
        List<Attempt> attempts = attemptsByRequest.get(client + "/" + reqId);
        Attempt seen = null;
        if (attempts != null) {
            for (Attempt a : attempts) {
                if (a.switchTime <= time) {
                    seen = a;
                }
            }
        }
        if (seen == null) {
            throw new TraceFormatException("line " + line.line() + ": a server saw request " + reqId + " of " + client
                    + " before it was sent");
        }
        return seen;
    }
}
